//! The work-stealing pool: `join`, `scope`, `install` and friends.
//!
//! PLACEHOLDER: this module currently runs everything sequentially on the calling
//! thread. It fixes the public signatures (identical to Rayon's) so the other layers
//! can be built against them; the real pool replaces the bodies.

use std::cell::Cell;

/// Context passed to the closures of [`join_context`].
///
/// ```
/// let (a, _) = prorata::join_context(|ctx| ctx.migrated(), |_| ());
/// assert!(!a || a);
/// ```
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
}

impl FnContext {
    /// Whether the closure runs on a different thread than the one that called
    /// `join_context` (that is, it was stolen).
    ///
    /// ```
    /// prorata::join_context(|ctx| assert!(!ctx.migrated()), |_| ());
    /// ```
    #[inline]
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}

/// Runs two closures, potentially in parallel, and returns both results.
///
/// ```
/// let (x, y) = prorata::join(|| 1, || 2);
/// assert_eq!(x + y, 3);
/// ```
pub fn join<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_context(|_| oper_a(), |_| oper_b())
}

/// Like [`join`], but each closure learns whether it was stolen.
///
/// ```
/// let (x, y) = prorata::join_context(|_| 1, |_| 2);
/// assert_eq!((x, y), (1, 2));
/// ```
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let a = oper_a(FnContext { migrated: false });
    let b = oper_b(FnContext { migrated: false });
    (a, b)
}

thread_local! {
    static INSTALLED_THREADS: Cell<usize> = const { Cell::new(0) };
}

/// Number of threads in the current pool (the global pool outside any pool).
///
/// ```
/// assert!(prorata::current_num_threads() >= 1);
/// ```
pub fn current_num_threads() -> usize {
    match INSTALLED_THREADS.with(Cell::get) {
        0 => num_cpus::get().max(1),
        n => n,
    }
}

/// A safe point: where a worker may be asked to give its core back.
/// Iterator leaf loops call it every few thousand items.
#[inline]
#[allow(dead_code)] // used by the iterator layer
pub(crate) fn safe_point() {}

/// Builds a [`ThreadPool`].
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
#[derive(Debug, Default)]
pub struct ThreadPoolBuilder {
    num_threads: usize,
}

/// Error returned when a pool cannot be built.
///
/// ```
/// let err: Option<prorata::ThreadPoolBuildError> = None;
/// assert!(err.is_none());
/// ```
#[derive(Debug)]
pub struct ThreadPoolBuildError {
    _private: (),
}

impl std::fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the thread pool could not be built")
    }
}

impl std::error::Error for ThreadPoolBuildError {}

impl ThreadPoolBuilder {
    /// A builder with default settings.
    ///
    /// ```
    /// let _ = prorata::ThreadPoolBuilder::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of worker threads; 0 means the default.
    ///
    /// ```
    /// let _ = prorata::ThreadPoolBuilder::new().num_threads(4);
    /// ```
    pub fn num_threads(mut self, n: usize) -> Self {
        self.num_threads = n;
        self
    }

    /// Builds the pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    /// ```
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError> {
        let n = if self.num_threads == 0 {
            num_cpus::get().max(1)
        } else {
            self.num_threads
        };
        Ok(ThreadPool { num_threads: n })
    }
}

/// A pool of worker threads.
///
/// ```
/// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.install(|| 6 * 7), 42);
/// ```
#[derive(Debug)]
pub struct ThreadPool {
    num_threads: usize,
}

impl ThreadPool {
    /// Runs `op` inside the pool and returns its result.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// assert_eq!(pool.install(prorata::current_num_threads), 3);
    /// ```
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        let old = INSTALLED_THREADS.with(|c| c.replace(self.num_threads));
        struct Restore(usize);
        impl Drop for Restore {
            fn drop(&mut self) {
                INSTALLED_THREADS.with(|c| c.set(self.0));
            }
        }
        let _restore = Restore(old);
        op()
    }

    /// Number of threads in this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.current_num_threads(), 2);
    /// ```
    pub fn current_num_threads(&self) -> usize {
        self.num_threads
    }

    /// [`join`] inside this pool.
    ///
    /// ```
    /// let pool = prorata::ThreadPoolBuilder::new().build().unwrap();
    /// assert_eq!(pool.join(|| 1, || 2), (1, 2));
    /// ```
    pub fn join<A, B, RA, RB>(&self, oper_a: A, oper_b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.install(|| join(oper_a, oper_b))
    }
}
