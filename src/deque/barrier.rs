//! Asymmetric memory barriers, for the pool's pending join frames (`pool/frames.rs`) and
//! for thieves that rob a BWoS owner's private slots (`bwos/stealer.rs`). Here because
//! the deques are the lowest layer that needs them.
//!
//! Taking back a pending frame, the owner stores the stack's new top and then reads how
//! far thieves have claimed; a thief stores its claim and then reads the top. Each side
//! needs its store ordered before its load (a store-load barrier), or both could take
//! the same frame. The owner does this at every `join`, a thief almost never, so the
//! cost is moved to the thief: the owner issues only a compiler fence ([`light`]) and a
//! thief a process-wide barrier ([`heavy`]: Linux's `membarrier`, which makes every
//! running thread of the process execute a full barrier before it returns). Whatever
//! point of the owner's instruction stream that barrier falls on, either the owner's
//! store is visible to the thief's later load, or the owner's later load sees the
//! thief's claim.
//!
//! The barrier is the process's, decided once, when the first pool (or deque) is made:
//!
//! - `membarrier`: the process registers for the private expedited command, and each
//!   thief's barrier interrupts every CPU that runs a thread of the process, the user's
//!   own threads included (the global command, where the kernel has only that one);
//! - fences: both sides issue a full fence, so every `join` pays one and no thief
//!   interrupts anyone. Chosen with `ThreadPoolBuilder::thief_barrier` or
//!   `PRORATA_BARRIER=fence`; taken on systems other than Linux, and where the kernel
//!   (older than 4.3) or a sandbox (seccomp, gVisor) refuses `membarrier` at the query
//!   or at the registration. No thief panics, nor is the process registered.
//!
//! # Refused later
//!
//! A seccomp filter installed while pools run makes a thief's `membarrier` fail after
//! owners have used compiler fences only. That thief cannot know where the owner was,
//! so it gives its claim up ([`heavy`] returns false: it puts the stack's bottom or the
//! BWoS `rob` flag back as it was, under the lock, and the owner takes the frame back as
//! it would from a thief that backed off), and the process *switches* to fences: owners'
//! [`light`] reads the flag at every call and fences from then on. A thief may not rely
//! on its fence alone against an owner that read the flag before the switch, so each
//! owner says when it has seen it ([`Owner::note`], at its slow paths: a join's slow
//! path, a request answered, a push): it reads the flag set, then stores its word with
//! release. A thief that acquires that word knows that every later [`light`] of that
//! owner reads the flag set (coherence) and fences, and that every earlier one happened
//! before its claim. Until then a thief claims from that owner only with a `membarrier`
//! that the kernel still grants (a filter may cover some threads only), else not at all:
//! the owner publishes when asked, at its next join or safe point. So an owner already
//! blocked in user code when the refusal comes keeps its pending frames and private
//! slots until it returns. A builder that asks for fences once the barrier was decided
//! as `membarrier` switches the process the same way ([`choose`]). Nothing switches
//! back.
//!
//! Under loom the barrier starts as fences (both sides a full fence, so the models check
//! the protocol itself); a model may start it as a `membarrier` that the kernel refuses
//! (`loom_refused_membarrier`), which checks the switch: a compiler fence is no fence
//! to loom.

use std::sync::atomic::compiler_fence;

#[cfg(all(loom, test))]
use loom::sync::atomic::{AtomicBool, Ordering, fence};
#[cfg(not(all(loom, test)))]
use std::sync::atomic::{AtomicBool, Ordering, fence};

/// Not decided yet.
const UNDECIDED: u8 = 0;
/// `MEMBARRIER_CMD_PRIVATE_EXPEDITED`, registered.
const EXPEDITED: u8 = 1;
/// `MEMBARRIER_CMD_GLOBAL` (kernels with no expedited command).
const GLOBAL: u8 = 2;
/// A full fence on both sides, from the start.
const FENCES: u8 = 3;

/// The process's state, in statics (`const` atomics) or, under loom, in a lazy static
/// that each model execution makes anew.
#[cfg(not(all(loom, test)))]
mod state {
    use std::sync::atomic::{AtomicBool, AtomicU8};

    static KIND: AtomicU8 = AtomicU8::new(super::UNDECIDED);
    static OWNER_FENCES: AtomicBool = AtomicBool::new(false);
    static SWITCHED: AtomicBool = AtomicBool::new(false);

    /// Which barrier was decided (`UNDECIDED` before).
    #[inline(always)]
    pub(super) fn kind() -> &'static AtomicU8 {
        &KIND
    }

    /// Whether owners fence: from the start, or since the switch.
    #[inline(always)]
    pub(super) fn owner_fences() -> &'static AtomicBool {
        &OWNER_FENCES
    }

    /// Whether the process switched from `membarrier` to fences.
    #[inline(always)]
    pub(super) fn switched() -> &'static AtomicBool {
        &SWITCHED
    }

    /// Held while the barrier is decided (a query and a registration).
    pub(super) fn deciding() -> std::sync::MutexGuard<'static, ()> {
        static DECIDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        DECIDING.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(all(loom, test))]
mod state {
    use loom::sync::atomic::{AtomicBool, AtomicU8};

    pub(super) struct State {
        kind: AtomicU8,
        owner_fences: AtomicBool,
        switched: AtomicBool,
    }

    // Decided as fences from the start, as a pool decides before its owners run
    // (the models make owners without a pool).
    loom::lazy_static! {
        static ref STATE: State = State {
            kind: AtomicU8::new(super::FENCES),
            owner_fences: AtomicBool::new(true),
            switched: AtomicBool::new(false),
        };
    }

    pub(super) fn kind() -> &'static AtomicU8 {
        &STATE.kind
    }

    pub(super) fn owner_fences() -> &'static AtomicBool {
        &STATE.owner_fences
    }

    pub(super) fn switched() -> &'static AtomicBool {
        &STATE.switched
    }

    /// A model decides on one thread, before it starts the others.
    pub(super) fn deciding() {}
}

#[cfg(all(target_os = "linux", not(miri), not(all(loom, test))))]
mod os {
    const MEMBARRIER_CMD_QUERY: libc::c_long = 0;
    const MEMBARRIER_CMD_GLOBAL: libc::c_long = 1;
    const MEMBARRIER_CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
    const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

    fn membarrier(cmd: libc::c_long) -> libc::c_long {
        // SAFETY: `membarrier(cmd, flags = 0, cpu_id = 0)` takes no pointers; a
        // command the kernel does not support, or a call a filter refuses, returns -1.
        unsafe {
            libc::syscall(
                libc::SYS_membarrier,
                cmd,
                0 as libc::c_long,
                0 as libc::c_long,
            )
        }
    }

    /// What the kernel gives: the expedited command if it offers it and registers the
    /// process, else the global one if it offers only that, else fences (the query
    /// or the registration refused).
    pub(super) fn query() -> u8 {
        let supported = membarrier(MEMBARRIER_CMD_QUERY);
        if supported < 0 {
            super::FENCES
        } else if supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED != 0 {
            if membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 {
                super::EXPEDITED
            } else {
                super::FENCES
            }
        } else if supported & MEMBARRIER_CMD_GLOBAL != 0 {
            super::GLOBAL
        } else {
            super::FENCES
        }
    }

    /// A process-wide barrier of `kind`; false if the kernel refused it.
    pub(super) fn process_barrier(kind: u8) -> bool {
        let cmd = if kind == super::EXPEDITED {
            MEMBARRIER_CMD_PRIVATE_EXPEDITED
        } else {
            MEMBARRIER_CMD_GLOBAL
        };
        membarrier(cmd) == 0
    }
}

/// Elsewhere, under Miri (which has no `membarrier`), and under loom (where a model
/// may start with a `membarrier` that every call of which is refused): fences.
#[cfg(not(all(target_os = "linux", not(miri), not(all(loom, test)))))]
mod os {
    pub(super) fn query() -> u8 {
        super::FENCES
    }

    pub(super) fn process_barrier(_kind: u8) -> bool {
        false
    }
}

/// The barrier chosen, deciding it (with `PRORATA_BARRIER`) if it was not yet.
#[inline]
fn kind() -> u8 {
    match state::kind().load(Ordering::Acquire) {
        UNDECIDED => decide(None),
        kind => kind,
    }
}

/// Decides the barrier if nobody has: fences if `fences` says so (`None`: if
/// `PRORATA_BARRIER` does), else what the kernel gives. Returns the barrier decided.
#[cold]
fn decide(fences: Option<bool>) -> u8 {
    let _deciding = state::deciding();
    let kind = state::kind().load(Ordering::Acquire);
    if kind != UNDECIDED {
        return kind;
    }
    let kind = if fences.unwrap_or_else(fences_asked) {
        FENCES
    } else {
        os::query()
    };
    // Relaxed: the owners that read it start after (a thread started, a deque made).
    state::owner_fences().store(kind == FENCES, Ordering::Relaxed);
    state::kind().store(kind, Ordering::Release);
    kind
}

/// Decides (once) which barrier to use, before the first pool runs: fences if
/// `PRORATA_BARRIER` asks for them, else what the kernel gives.
pub(crate) fn init() {
    kind();
}

/// A pool's builder chose the barrier: `fences`, or `membarrier` where the kernel
/// gives it. The first choice decides; fences asked for later switch the process to
/// them (see the module's comment), and a later `membarrier` changes nothing.
pub(crate) fn choose(fences: bool) {
    let kind = match state::kind().load(Ordering::Acquire) {
        UNDECIDED => decide(Some(fences)),
        kind => kind,
    };
    if fences && kind != FENCES {
        switch_to_fences();
    }
}

/// From now on owners fence, and thieves claim from an owner only once it has said
/// that it fences ([`Owner::note`]).
#[cold]
fn switch_to_fences() {
    state::owner_fences().store(true, Ordering::Relaxed);
    // Release: an owner that reads the switch (Acquire) reads the fences too.
    state::switched().store(true, Ordering::Release);
}

/// The owner's side: a compiler fence (thieves claim only with a process-wide barrier),
/// or a full fence when both sides fence (from the start, or since the switch).
#[inline(always)]
pub(crate) fn light() {
    if state::owner_fences().load(Ordering::Relaxed) {
        fence(Ordering::SeqCst);
    } else {
        compiler_fence(Ordering::SeqCst);
    }
}

/// The thief's side, between its claim's store and its load of the owner's state: a
/// barrier on every running thread of the process, or a fence where the owner fences.
/// False if there was none: the kernel refused `membarrier` (the process switches to
/// fences) or, since the switch, `owner` has not said that it fences and the kernel
/// still refuses. The thief must then give its claim up, taking nothing.
pub(crate) fn heavy(owner: &Owner) -> bool {
    fence(Ordering::SeqCst);
    let kind = kind();
    if kind == FENCES {
        return true;
    }
    // Relaxed: a thief that misses the switch calls `membarrier`, which works or fails
    // as it would after the switch. Acquire: every `light` of the owner after its
    // word fences, and every one before happened before this claim.
    if state::switched().load(Ordering::Relaxed) && owner.fenced.load(Ordering::Acquire) {
        return true;
    }
    if os::process_barrier(kind) {
        return true;
    }
    REFUSED_HERE.with(|r| r.set(true));
    switch_to_fences();
    false
}

/// Which barrier a thief pays: `membarrier`, `membarrier (global)` or `fence` (from
/// the start, or since the kernel refused `membarrier` or a builder asked for fences).
pub(crate) fn name() -> &'static str {
    match kind() {
        _ if state::switched().load(Ordering::Relaxed) => "fence",
        EXPEDITED => "membarrier",
        GLOBAL => "membarrier (global)",
        _ => "fence",
    }
}

/// One owner's word that it fences, for thieves after a switch to fences (one per
/// worker: the owner of a frame stack and of a deque). Its thread is the owner's, or,
/// when the worker's thread changes (a retired worker restarted), one that the previous
/// thread's work happened before, so the word stays true.
pub(crate) struct Owner {
    fenced: AtomicBool,
}

impl Owner {
    pub(crate) fn new() -> Self {
        Owner {
            fenced: AtomicBool::new(false),
        }
    }

    /// The owner's thread, at a slow path: after a switch to fences, says (once) that
    /// this owner fences, if it sees the switch. Whether thieves may now take what this
    /// owner keeps unpublished (else it shows its jobs at once, as it pushes them).
    #[inline]
    pub(crate) fn note(&self) -> bool {
        // Relaxed: missing the switch here is caught at the next call.
        !state::switched().load(Ordering::Relaxed) || self.note_switched()
    }

    #[cold]
    fn note_switched(&self) -> bool {
        if self.fenced.load(Ordering::Relaxed) {
            return true;
        }
        // Acquire: pairs with the switch's Release, so the fences are seen with it.
        if !state::switched().load(Ordering::Acquire)
            || !state::owner_fences().load(Ordering::Relaxed)
        {
            return false;
        }
        // Release: see `heavy`.
        self.fenced.store(true, Ordering::Release);
        true
    }

    /// Thieves: whether a claim from this owner can work now (a hint: [`heavy`]
    /// decides). False only after a switch to fences, until the owner's word, and
    /// only for a thread whose `membarrier` was refused.
    #[inline]
    pub(crate) fn claimable(&self) -> bool {
        !state::switched().load(Ordering::Relaxed)
            || self.fenced.load(Ordering::Relaxed)
            || !refused_here()
    }
}

/// Whether this thread's `membarrier` was refused (a seccomp filter is the thread's;
/// a thread that never tried is given the benefit of the doubt).
fn refused_here() -> bool {
    REFUSED_HERE.with(|r| r.get())
}

#[cfg(not(all(loom, test)))]
thread_local! {
    static REFUSED_HERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(all(loom, test))]
loom::thread_local! {
    static REFUSED_HERE: std::cell::Cell<bool> = std::cell::Cell::new(false);
}

/// Under loom: the barrier starts as a `membarrier` that the kernel refuses at every
/// call (owners' compiler fences are no fences to loom). Called by a model before it
/// starts its threads.
#[cfg(all(loom, test))]
pub(crate) fn loom_refused_membarrier() {
    state::owner_fences().store(false, Ordering::Relaxed);
    state::kind().store(EXPEDITED, Ordering::Release);
}

/// The environment variable that asks for plain fences on both sides.
pub(crate) const ENV_VAR: &str = "PRORATA_BARRIER";

/// Whether `PRORATA_BARRIER` asks for plain fences (`fence`, any case).
fn fences_asked() -> bool {
    std::env::var(ENV_VAR).is_ok_and(|v| v.trim().eq_ignore_ascii_case("fence"))
}
