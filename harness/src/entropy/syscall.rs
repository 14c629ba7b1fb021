//! The C library's `syscall`, as this program's own code finds it, on
//! x86_64 Linux: the same system calls, made the same way, except
//! `getrandom`'s, which goes to [`getrandom`](super::imp::getrandom).
//! Crates that make that system call themselves through `syscall` (the
//! `getrandom` crate before 0.3, under `rand` 0.8) then draw the fixed
//! sequence in a process that counts, as the standard library does.
//! The C library's own calls keep its own `syscall`.

use std::ffi::{c_int, c_long, c_uint, c_void};

/// `getrandom`'s number.
const SYS_GETRANDOM: c_long = 318;

unsafe extern "C" {
    fn __errno_location() -> *mut c_int;
}

// `syscall(number, a, b, c, d, e, f)`: the number and five arguments in
// registers, the sixth on the stack, moved to where the kernel takes them,
// as the C library's does; a result from -4095 to -1 is an error number,
// set as `errno`, and -1 returned. `getrandom`'s three arguments go on to
// the bench binary's own.
std::arch::global_asm!(
    ".globl syscall",
    ".type syscall, @function",
    "syscall:",
    "cmp rdi, {getrandom_nr}",
    "je 8f",
    "mov rax, rdi",
    "mov rdi, rsi",
    "mov rsi, rdx",
    "mov rdx, rcx",
    "mov r10, r8",
    "mov r8, r9",
    "mov r9, [rsp + 8]",
    "syscall",
    "cmp rax, -4095",
    "jae 7f",
    "ret",
    "7:",
    "neg eax",
    // Aligns the stack for the call, and keeps the error number.
    "push rax",
    "call {errno}@PLT",
    "pop rcx",
    "mov dword ptr [rax], ecx",
    "mov rax, -1",
    "ret",
    "8:",
    "mov rdi, rsi",
    "mov rsi, rdx",
    "mov rdx, rcx",
    "jmp {getrandom}",
    ".size syscall, . - syscall",
    getrandom_nr = const SYS_GETRANDOM,
    errno = sym __errno_location,
    getrandom = sym super::imp::getrandom,
);

/// The kernel's `getrandom`, asked here: through `syscall` it would come
/// back to the bench binary's own.
///
/// # Safety
///
/// `buffer` is valid for writes of `length` bytes.
pub(super) unsafe fn kernel_getrandom(buffer: *mut c_void, length: usize, flags: c_uint) -> isize {
    let ret: isize;
    // SAFETY: the caller's buffer and length, as the kernel takes them; the
    // instruction overwrites rcx and r11.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") SYS_GETRANDOM as isize => ret,
            in("rdi") buffer,
            in("rsi") length,
            in("rdx") flags as usize,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    if ret < 0 {
        // SAFETY: this thread's `errno`.
        unsafe { *__errno_location() = -ret as c_int };
        return -1;
    }
    ret
}

#[cfg(test)]
mod tests {
    use std::ffi::c_long;
    use std::os::fd::AsRawFd;

    unsafe extern "C" {
        fn syscall(number: c_long, ...) -> c_long;
    }

    #[test]
    fn system_calls_go_through_as_the_c_librarys_do() {
        // SAFETY: `getpid` takes nothing.
        assert_eq!(
            unsafe { syscall(39) },
            c_long::from(std::process::id() as i32)
        );
        // SAFETY: no such call.
        assert_eq!(unsafe { syscall(100_000) }, -1);
        assert_eq!(std::io::Error::last_os_error().raw_os_error(), Some(38));
        // Six arguments, the sixth on the stack: this executable mapped at
        // an offset reads as its bytes there.
        let exe = std::fs::read("/proc/self/exe").unwrap();
        let file = std::fs::File::open("/proc/self/exe").unwrap();
        let (page, fd) = (4096usize, file.as_raw_fd());
        // SAFETY: `mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, page)`.
        let at = unsafe { syscall(9, 0usize, page, 1i32, 2i32, fd, page) };
        assert!(at > 0, "{}", std::io::Error::last_os_error());
        // SAFETY: `page` readable bytes, mapped above.
        let mapped = unsafe { std::slice::from_raw_parts(at as *const u8, page) };
        assert_eq!(mapped, &exe[page..2 * page]);
        // SAFETY: unmaps what was mapped above, no longer read.
        assert_eq!(unsafe { syscall(11, at, page) }, 0);
        // `getrandom` through it, the kernel's bytes here.
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        // SAFETY: buffers of the length given.
        assert_eq!(unsafe { syscall(318, a.as_mut_ptr(), 32usize, 0u32) }, 32);
        // SAFETY: as above.
        assert_eq!(unsafe { syscall(318, b.as_mut_ptr(), 32usize, 0u32) }, 32);
        assert_ne!(a, b);
        // Its errors as the kernel's: a buffer it cannot write.
        // SAFETY: the kernel checks the address; nothing is written.
        assert_eq!(unsafe { syscall(318, 8usize, 32usize, 0u32) }, -1);
        assert_eq!(std::io::Error::last_os_error().raw_os_error(), Some(14));
    }
}
