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
//! With `PRORATA_BARRIER=fence` in the environment (any case; read once, when the
//! first pool or deque is made) both sides use a full fence instead: every `join` pays
//! a fence, and no thief ever interrupts the other cores. On a machine with many busy
//! workers and frequent steals that can be the better trade (see `docs/scaling.md`).
//!
//! On other systems both sides use a full fence, which is correct and slower. On a Linux
//! kernel that refuses the call (older than 4.3, or a sandbox that filters it) thieves do
//! not claim pending frames or rob BWoS slots at all ([`thieves_may_claim`] is false):
//! their owners still publish them when asked, at their next join or safe point. Under loom both barriers
//! are full fences, so the models check the protocol itself.

#[cfg(all(target_os = "linux", not(all(loom, test))))]
mod imp {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, Ordering, compiler_fence, fence};

    const MEMBARRIER_CMD_QUERY: libc::c_long = 0;
    const MEMBARRIER_CMD_GLOBAL: libc::c_long = 1;
    const MEMBARRIER_CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
    const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

    /// Which process-wide barrier the kernel gives, decided once.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Kind {
        Expedited,
        Global,
        /// `PRORATA_BARRIER=fence`: a full fence on both sides.
        Fences,
        None,
    }

    static KIND: OnceLock<Kind> = OnceLock::new();

    /// Whether the owner's side is a full fence ([`Kind::Fences`]): set once, by
    /// `kind()`, before any owner can run (`init` is called when a deque is made,
    /// and the threads that own deques start after).
    static FENCES: AtomicBool = AtomicBool::new(false);

    fn membarrier(cmd: libc::c_long) -> libc::c_long {
        // SAFETY: `membarrier(cmd, flags = 0, cpu_id = 0)` takes no pointers; an
        // unsupported command returns -1.
        unsafe {
            libc::syscall(
                libc::SYS_membarrier,
                cmd,
                0 as libc::c_long,
                0 as libc::c_long,
            )
        }
    }

    fn kind() -> Kind {
        *KIND.get_or_init(|| {
            if super::fences_asked() {
                FENCES.store(true, Ordering::Relaxed);
                return Kind::Fences;
            }
            let supported = membarrier(MEMBARRIER_CMD_QUERY);
            if supported < 0 {
                return Kind::None;
            }
            if supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED != 0
                && membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0
            {
                Kind::Expedited
            } else if supported & MEMBARRIER_CMD_GLOBAL != 0 {
                Kind::Global
            } else {
                Kind::None
            }
        })
    }

    /// Decides (once) which barrier to use, before the first pool runs.
    pub(crate) fn init() {
        kind();
    }

    /// Whether thieves may claim pending frames: only with a process-wide barrier.
    pub(crate) fn thieves_may_claim() -> bool {
        kind() != Kind::None
    }

    /// The owner's side: a compiler fence (thieves claim only where [`heavy`] is a
    /// process-wide barrier), or a full fence when both sides fence.
    #[inline(always)]
    pub(crate) fn light() {
        if FENCES.load(Ordering::Relaxed) {
            fence(Ordering::SeqCst);
        } else {
            compiler_fence(Ordering::SeqCst);
        }
    }

    /// Which barrier a thief pays: `membarrier`, `membarrier (global)`, `fence`, or
    /// `none` (thieves do not claim).
    pub(crate) fn name() -> &'static str {
        match kind() {
            Kind::Expedited => "membarrier",
            Kind::Global => "membarrier (global)",
            Kind::Fences => "fence",
            Kind::None => "none",
        }
    }

    /// The thief's side: a barrier on every running thread of the process.
    pub(crate) fn heavy() {
        fence(Ordering::SeqCst);
        match kind() {
            Kind::Expedited => {
                let r = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
                assert!(r == 0, "prorata: membarrier failed after registration");
            }
            Kind::Global => {
                let r = membarrier(MEMBARRIER_CMD_GLOBAL);
                assert!(r == 0, "prorata: membarrier failed after the query");
            }
            Kind::Fences | Kind::None => {}
        }
    }
}

#[cfg(not(all(target_os = "linux", not(all(loom, test)))))]
mod imp {
    #[cfg(all(loom, test))]
    use loom::sync::atomic::{Ordering, fence};
    #[cfg(not(all(loom, test)))]
    use std::sync::atomic::{Ordering, fence};

    pub(crate) fn init() {}

    /// Thieves may claim pending frames: both sides fence.
    pub(crate) fn thieves_may_claim() -> bool {
        true
    }

    /// A full fence: no process-wide barrier is used here.
    #[inline(always)]
    pub(crate) fn light() {
        fence(Ordering::SeqCst);
    }

    /// A full fence, pairing with [`light`]'s.
    pub(crate) fn heavy() {
        fence(Ordering::SeqCst);
    }

    /// Both sides fence here.
    pub(crate) fn name() -> &'static str {
        "fence"
    }
}

pub(crate) use imp::{heavy, init, light, name, thieves_may_claim};

/// The environment variable that asks for plain fences on both sides.
pub(crate) const ENV_VAR: &str = "PRORATA_BARRIER";

/// Whether `PRORATA_BARRIER` asks for plain fences (`fence`, any case).
#[cfg_attr(not(all(target_os = "linux", not(all(loom, test)))), allow(dead_code))]
fn fences_asked() -> bool {
    std::env::var(ENV_VAR).is_ok_and(|v| v.trim().eq_ignore_ascii_case("fence"))
}
