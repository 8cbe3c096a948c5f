//! A public but hidden handle on the worker deques, for `benches/deque.rs` (the deques
//! are private to the crate), and on the barrier a thief pays, for
//! `examples/barrier_cost.rs`. Not part of the API: it may change without notice.

use super::{DequeKind, Local, Steal, Stealer, barrier};

/// One thief-side barrier, as a thief that claims a pending join frame or robs a
/// BWoS slot pays it (hidden): Linux's `membarrier`, or a fence (see
/// [`barrier_name`]).
///
/// ```
/// prorata::deque_bench::process_barrier();
/// ```
pub fn process_barrier() {
    barrier::init();
    barrier::heavy(&barrier::Owner::new());
}

/// Which barrier thieves pay in this process (hidden): `membarrier`,
/// `membarrier (global)` or `fence` (chosen on a builder or with
/// `PRORATA_BARRIER=fence`, not Linux, or the kernel refuses `membarrier`).
///
/// ```
/// let name = prorata::deque_bench::barrier_name();
/// assert!(["membarrier", "membarrier (global)", "fence"].contains(&name));
/// ```
pub fn barrier_name() -> &'static str {
    barrier::name()
}

/// The owner's end of a worker deque of either kind, as the pool uses it (hidden).
///
/// ```
/// use prorata::{DequeKind, deque_bench::Deque};
///
/// let deque = Deque::new(DequeKind::Bwos);
/// let thief = deque.thief();
/// deque.push(1);
/// deque.push(2);
/// assert_eq!(thief.steal(), Some(1));
/// assert_eq!(deque.pop(), Some(2));
/// assert_eq!(deque.pop(), None);
/// ```
pub struct Deque<T>(Local<T>);

impl<T> Deque<T> {
    /// An empty deque of `kind`.
    pub fn new(kind: DequeKind) -> Self {
        Deque(Local::new(kind))
    }

    /// Pushes on the owner's end.
    #[inline]
    pub fn push(&self, value: T) {
        self.0.push(value)
    }

    /// Pops the newest value.
    #[inline]
    pub fn pop(&self) -> Option<T> {
        self.0.pop()
    }

    /// A thieves' end.
    pub fn thief(&self) -> Thief<T> {
        Thief(self.0.stealer())
    }
}

/// The thieves' end of a [`Deque`] (hidden).
///
/// ```
/// use prorata::{DequeKind, deque_bench::Deque};
///
/// let deque = Deque::new(DequeKind::ChaseLev);
/// let thief = deque.thief();
/// deque.push(7);
/// assert_eq!(std::thread::spawn(move || thief.steal()).join().unwrap(), Some(7));
/// ```
pub struct Thief<T>(Stealer<T>);

impl<T> Thief<T> {
    /// Steals the oldest value, retrying lost races; `None` if there is nothing to take.
    #[inline]
    pub fn steal(&self) -> Option<T> {
        loop {
            match self.0.steal() {
                Steal::Success(v) => return Some(v),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
    }
}
