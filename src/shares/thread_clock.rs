//! The CPU time of a worker thread: what the permits charge a share for.
//!
//! A permit stands for a core, but the operating system decides when the thread
//! holding it runs. Charged by the wall clock, a share whose holder is descheduled
//! (the machine is busy, or the job blocks on I/O while holding its core) pays for
//! time it did not compute, and completes fewer items than its fraction. Charged
//! by the holder's own CPU time, each share pays for what it used, so the
//! fractions hold in computed work (nonuniform quanta: a holder that used part of
//! its quantum pays for that part, as with Waldspurger's compensation).
//!
//! Linux only (`pthread_getcpuclockid`); elsewhere, and in the loom models, the
//! permits charge wall time.

/// The CPU clock of one thread.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ThreadClock {
    #[cfg(all(target_os = "linux", not(loom)))]
    id: libc::clockid_t,
}

/// Whether threads have CPU clocks here (else the permits charge wall time).
pub(crate) const AVAILABLE: bool = cfg!(all(target_os = "linux", not(loom)));

impl ThreadClock {
    /// The CPU clock of the calling thread, if the platform has one.
    #[cfg(all(target_os = "linux", not(loom)))]
    pub(crate) fn current() -> Option<ThreadClock> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: `pthread_self` is always valid for the calling thread, and `id`
        // is a valid place to write the clock id to.
        let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
        (rc == 0).then_some(ThreadClock { id })
    }

    #[cfg(not(all(target_os = "linux", not(loom))))]
    pub(crate) fn current() -> Option<ThreadClock> {
        None
    }

    /// CPU time the thread has used, in nanoseconds (`None` if the clock cannot
    /// be read: the thread is gone).
    #[cfg(all(target_os = "linux", not(loom)))]
    pub(crate) fn read(self) -> Option<u64> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid place to write to, and the id is a plain number: the
        // call reads no memory of the thread. Once the thread has exited it fails
        // (EINVAL), or, if the kernel reused the thread's id, reads the new thread's
        // clock: a wrong charge at worst, never undefined behaviour.
        let rc = unsafe { libc::clock_gettime(self.id, &mut ts) };
        (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }

    #[cfg(not(all(target_os = "linux", not(loom))))]
    pub(crate) fn read(self) -> Option<u64> {
        None
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_thread_clock_counts_cpu_not_sleep() {
        let clock = ThreadClock::current();
        assert_eq!(clock.is_some(), AVAILABLE);
        let Some(clock) = clock else { return };
        let t0 = clock.read().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let slept = clock.read().unwrap() - t0;
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let spun = clock.read().unwrap() - t0 - slept;
        assert!(slept < spun, "slept {slept} ns, spun {spun} ns");
    }
}
