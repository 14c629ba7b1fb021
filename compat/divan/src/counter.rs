//! divan's counters, as nbench's throughput and counters.

/// Bytes one iteration processes.
#[derive(Debug, Clone, Copy)]
pub struct BytesCount(u64);
/// Items one iteration processes.
#[derive(Debug, Clone, Copy)]
pub struct ItemsCount(u64);
/// Characters one iteration processes.
#[derive(Debug, Clone, Copy)]
pub struct CharsCount(u64);
/// CPU cycles one iteration takes, by the program's own count.
#[derive(Debug, Clone, Copy)]
pub struct CyclesCount(u64);

macro_rules! count_of {
    ($($t:ident),*) => {$(
        impl $t {
            /// `count` of it per iteration.
            pub fn new<N: TryInto<u64>>(count: N) -> Self {
                $t(count.try_into().unwrap_or(u64::MAX))
            }
        }
        impl<N: TryInto<u64>> From<N> for $t {
            fn from(count: N) -> Self {
                $t::new(count)
            }
        }
    )*};
}

count_of!(BytesCount, ItemsCount, CharsCount, CyclesCount);

impl BytesCount {
    /// The bytes of `n` values of `T`.
    pub fn of_many<T>(n: usize) -> Self {
        BytesCount::new(std::mem::size_of::<T>().saturating_mul(n))
    }
    /// The bytes of one `T`.
    pub fn of<T>() -> Self {
        BytesCount::of_many::<T>(1)
    }
    /// The bytes of `s`.
    pub fn of_str<S: AsRef<str> + ?Sized>(s: &S) -> Self {
        BytesCount::new(s.as_ref().len())
    }
    /// The bytes of the values of `slice`.
    pub fn of_slice<T, S: AsRef<[T]> + ?Sized>(slice: &S) -> Self {
        BytesCount::new(std::mem::size_of_val(slice.as_ref()))
    }
}

impl CharsCount {
    /// The characters of `s`.
    pub fn of_str<S: AsRef<str> + ?Sized>(s: &S) -> Self {
        CharsCount::new(s.as_ref().chars().count())
    }
}

/// Any of divan's counters.
#[derive(Debug, Clone, Copy)]
pub enum Counter {
    Bytes(u64),
    Items(u64),
    Chars(u64),
    Cycles(u64),
}

impl From<BytesCount> for Counter {
    fn from(c: BytesCount) -> Counter {
        Counter::Bytes(c.0)
    }
}
impl From<ItemsCount> for Counter {
    fn from(c: ItemsCount) -> Counter {
        Counter::Items(c.0)
    }
}
impl From<CharsCount> for Counter {
    fn from(c: CharsCount) -> Counter {
        Counter::Chars(c.0)
    }
}
impl From<CyclesCount> for Counter {
    fn from(c: CyclesCount) -> Counter {
        Counter::Cycles(c.0)
    }
}

/// A plain unsigned integer counts items, as in divan.
macro_rules! items_of {
    ($($t:ty),*) => {$(
        impl From<$t> for Counter {
            fn from(n: $t) -> Counter {
                Counter::Items(n as u64)
            }
        }
    )*};
}

items_of!(u8, u16, u32, u64, usize);

impl Counter {
    /// Declares it on the benchmark: bytes and items as its throughput,
    /// characters and cycles as counters per iteration.
    pub(crate) fn declare(self, b: &mut nbench::Bencher<'_>) {
        match self {
            Counter::Bytes(n) => drop(b.throughput(nbench::Throughput::Bytes(n))),
            Counter::Items(n) => drop(b.throughput(nbench::Throughput::Items(n))),
            Counter::Chars(n) => drop(b.counter(nbench::Counter::rate("chars", n as f64))),
            Counter::Cycles(n) => drop(b.counter(nbench::Counter::rate("cycles", n as f64))),
        }
    }
}
