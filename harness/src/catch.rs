//! Panic capture: a panic inside a benchmark (or one of its threads) becomes that benchmark's failure message.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs a benchmark function under [`capture`].
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the panic hook once: a panic inside a guarded benchmark is
/// recorded for the report instead of printed; any other panic (another
/// thread, code outside a benchmark) keeps the usual message.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAPTURING.get() {
                return default(info);
            }
            let payload = info.payload();
            let msg = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(a panic without a message)");
            let text = match info.location() {
                Some(l) => format!("panicked at {}:{}: {msg}", l.file(), l.line()),
                None => format!("panicked: {msg}"),
            };
            LAST_PANIC.set(Some(text));
        }));
    });
}

/// Runs `f` on this thread with panics recorded instead of printed; `Err`
/// is the panic's message and place. A panic resumed from another thread
/// (`resume_unwind`, which skips the hook) gives its `String` payload.
pub(crate) fn capture<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    install_hook();
    let was = CAPTURING.replace(true);
    let outcome = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.set(was);
    outcome.map_err(|payload| {
        LAST_PANIC
            .take()
            .or_else(|| payload.downcast::<String>().ok().map(|s| *s))
            .unwrap_or_else(|| "panicked".to_owned())
    })
}
