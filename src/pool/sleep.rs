//! Putting idle workers to sleep, and waking them without ever losing a wake-up.
//!
//! One atomic word holds three counters: sleeping workers, inactive (idle: looking for
//! work or asleep) workers, and a *jobs event counter* (JEC). The JEC is odd while some
//! worker has announced it is about to sleep ("sleepy"); whoever publishes new work bumps
//! it (making it even) only in that case, so pushes cost one load when nobody is sleepy.
//!
//! A worker goes to sleep in three steps: it searches for work for a few rounds (yielding
//! its core each round), then announces itself sleepy by reading (and making odd) the JEC,
//! searches once more, and finally, under its own mutex, increments the sleeping count
//! only if the JEC is unchanged. A publisher of work pushes it, then reads the word (after
//! a `SeqCst` fence for work injected from outside). Either the publisher's bump happens
//! before the sleeper's increment (the increment fails and the sleeper searches again), or
//! the publisher sees the sleeper counted and wakes it. After incrementing, the sleeper
//! checks the injector and the deques one last time behind a `SeqCst` fence, pairing with the
//! publisher's fence, so injected work is never missed.
//!
//! Work pushed by a worker onto its own *empty* deque is fenced the same way, and the
//! final check looks at every deque, so no work is ever left with all workers asleep;
//! pushes onto a non-empty deque skip the fence (the older job there keeps sleepers
//! awake). Latch wake-ups are explicit (see `latch.rs`).
//!
//! In a pool whose idle workers retire (`retire.rs`), a worker asleep in its main loop
//! for long enough marks its bed retired and its thread exits, still counted as an
//! inactive sleeper; waking a retired bed restarts the worker instead of notifying it,
//! so the argument above is unchanged.

use super::latch::CoreLatch;
use std::time::{Duration, Instant};

use super::sync::{AtomicBool, AtomicU64, Condvar, Mutex, MutexGuard, Ordering, fence, yield_now};

#[cfg(not(all(loom, test)))]
const ROUNDS_UNTIL_SLEEPY: u32 = 32;
#[cfg(all(loom, test))]
const ROUNDS_UNTIL_SLEEPY: u32 = 1;

const SLEEPING_ONE: u64 = 1;
const INACTIVE_ONE: u64 = 1 << 16;
const JEC_ONE: u64 = 1 << 32;
const FIELD_MASK: u64 = 0xFFFF;

/// The most workers a pool may have (the counters are 16 bits wide).
pub(crate) const THREADS_MAX: usize = 0xFFFF;

#[inline]
fn sleeping(c: u64) -> u32 {
    (c & FIELD_MASK) as u32
}

#[inline]
fn inactive(c: u64) -> u32 {
    ((c >> 16) & FIELD_MASK) as u32
}

#[inline]
fn jec(c: u64) -> u32 {
    (c >> 32) as u32
}

#[inline]
fn is_sleepy(c: u64) -> bool {
    jec(c) & 1 == 1
}

/// Where a worker is, as its wakers see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bed {
    /// Running or searching.
    Awake,
    /// Blocked on its condvar, counted as sleeping.
    Blocked,
    /// Its thread has exited after a while asleep (a pool that retires idle
    /// workers, see `retire.rs`), or was never started; still counted as sleeping
    /// and inactive, so waking it restarts it.
    Retired,
}

/// A worker's bed: it blocks on the condvar while it is `Blocked`.
struct WorkerSleepState {
    bed: Mutex<Bed>,
    condvar: Condvar,
}

/// What announcing new jobs found: whether some worker was idle (looking for work or
/// asleep), and how many sleepers it woke.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Announced {
    pub(crate) idle: bool,
    pub(crate) woken: u32,
}

/// Called with a worker's index to start a new thread for a retired worker; returns
/// false if the thread could not start.
pub(crate) type Restart = Box<dyn Fn(usize) -> bool + Send + Sync>;

/// Asked before a sleeping worker is woken for new work: whether the pool may
/// keep one more thread running (`true`: a retired worker, whose thread would
/// start) or keep running the thread it has asleep (`false`: a blocked one). See
/// [`Sleep::with_start_gate`].
pub(crate) type StartGate = Box<dyn Fn(bool) -> bool + Send + Sync>;

/// Asked when a worker of a pool whose workers retire is about to block: whether
/// its thread is one the pool would not start now (see [`Sleep::with_spare_gate`]).
pub(crate) type SpareGate = Box<dyn Fn() -> bool + Send + Sync>;

/// The sleep state of a pool.
pub(crate) struct Sleep {
    counters: AtomicU64,
    states: Vec<crossbeam_utils::CachePadded<WorkerSleepState>>,
    /// Whether a sleeping worker is the sentinel (see `sleep`).
    sentinel: AtomicBool,
    /// Set for a pool whose idle workers retire: how a retired worker is woken.
    restart: Option<Restart>,
    /// Set for a pool whose threads are bounded (a share's): asked before new
    /// work restarts a retired worker.
    start_gate: Option<StartGate>,
    /// Set for a pool whose threads are bounded (a share's): asked before a
    /// worker blocks, whether it retires at once.
    spare_gate: Option<SpareGate>,
    /// Workers asleep in their main loop retire now, whatever their timeout.
    retire_now: std::sync::atomic::AtomicBool,
    /// Idle workers go to sleep without rounds of yielding (see
    /// [`Sleep::sleep_promptly`]).
    prompt: std::sync::atomic::AtomicBool,
}

/// Where a worker is in its search for work.
pub(crate) struct IdleState {
    worker_index: usize,
    rounds: u32,
    jobs_counter: u32,
    /// It just woke from a sentinel's nap (timed out).
    napped: bool,
    /// How long its next nap as the sentinel lasts.
    nap: Duration,
    /// Once asleep this long, the worker's thread exits (`None`: never).
    retire_after: Option<Duration>,
    /// The round at which it announces itself sleepy (it sleeps one round later).
    sleepy_at: u32,
}

impl IdleState {
    /// Lets the worker retire once asleep for `after` (its stack holds nothing:
    /// the main loop's wait).
    pub(crate) fn retiring_after(mut self, after: Option<Duration>) -> Self {
        self.retire_after = after;
        self
    }
}

/// How a fruitless search round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub(crate) enum Slept {
    /// Search again (or check the latch).
    Again,
    /// The worker retired: its thread must exit now, without touching the sleep
    /// counters again (it stays counted as an inactive sleeper until woken).
    Retired,
}

impl IdleState {
    /// Whether the worker should claim another worker's pending join frame now: it is
    /// about to sleep, or it woke from a sentinel's nap (see `frames.rs`).
    pub(crate) fn should_claim(&self) -> bool {
        self.napped || self.rounds > self.sleepy_at
    }
}

/// The pause between announcing sleepiness and the last search: a yield, or a short
/// spin for a worker that sleeps promptly (`sleepy_at` 0; see `Sleep::sleep_promptly`).
fn pause(sleepy_at: u32) {
    if sleepy_at == 0 {
        for _ in 0..64 {
            std::hint::spin_loop();
        }
    } else {
        yield_now();
    }
}

/// The sentinel's first nap, and the longest (each fruitless nap doubles the next): an
/// idle pool settles to no wake-ups within this.
const FIRST_NAP: Duration = Duration::from_millis(1);
const LONGEST_NAP: Duration = Duration::from_millis(4);

impl Sleep {
    /// Sleep state for `n` workers.
    pub(crate) fn new(n: usize) -> Self {
        Sleep {
            sentinel: AtomicBool::new(false),
            counters: AtomicU64::new(0),
            states: (0..n)
                .map(|_| {
                    crossbeam_utils::CachePadded::new(WorkerSleepState {
                        bed: Mutex::new(Bed::Awake),
                        condvar: Condvar::new(),
                    })
                })
                .collect(),
            restart: None,
            start_gate: None,
            spare_gate: None,
            retire_now: std::sync::atomic::AtomicBool::new(false),
            prompt: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Sleep state for `n` workers whose threads retire when idle and are not
    /// started yet: each counts as an inactive sleeper, and the first wake-up of
    /// each calls `restart` with its index.
    pub(crate) fn retiring(n: usize, restart: Restart) -> Self {
        let sleep = Sleep::new(n).with_restart(restart);
        for state in &sleep.states {
            *state.bed.lock().unwrap_or_else(|e| e.into_inner()) = Bed::Retired;
        }
        sleep
            .counters
            .store((SLEEPING_ONE + INACTIVE_ONE) * n as u64, Ordering::SeqCst);
        sleep
    }

    /// Lets workers retire: a retired worker is woken by `restart(index)`.
    pub(crate) fn with_restart(mut self, restart: Restart) -> Self {
        self.restart = Some(restart);
        self
    }

    /// From now on, idle workers sleep at once after one fruitless search, without
    /// rounds of yielding first: for a pool whose workers run only while they hold
    /// one of the shares' core permits (a share's, or a pool with shares). Such a
    /// worker has given its core back when it starts looking; a yield on a core
    /// that other shares' threads keep busy can leave it off the processor for a
    /// whole scheduler tick, while a sleeper is woken (and run) at once when its
    /// share gets work.
    pub(crate) fn sleep_promptly(&self) {
        self.prompt.store(true, Ordering::Relaxed);
    }

    /// Worker `worker_index` runs out of work and starts looking.
    #[inline]
    pub(crate) fn start_looking(&self, worker_index: usize) -> IdleState {
        // A share worker with nothing to do gives its core back now, not once
        // asleep: the search rounds below would hold it for nothing.
        super::preempt::worker_idle();
        self.counters.fetch_add(INACTIVE_ONE, Ordering::SeqCst);
        IdleState {
            worker_index,
            rounds: 0,
            jobs_counter: 0,
            napped: false,
            nap: FIRST_NAP,
            retire_after: None,
            sleepy_at: if self.prompt.load(Ordering::Relaxed) {
                0
            } else {
                ROUNDS_UNTIL_SLEEPY
            },
        }
    }

    /// The worker found work and is active again.
    #[inline]
    pub(crate) fn work_found(&self) {
        self.counters.fetch_sub(INACTIVE_ONE, Ordering::SeqCst);
    }

    /// One fruitless search round: yield, announce sleepiness, or sleep. Returns when the
    /// worker should search again (or check `latch`), or when it retired. `has_work` is
    /// the final check before blocking (injected, broadcast or queued jobs).
    pub(crate) fn no_work_found(
        &self,
        idle: &mut IdleState,
        latch: &CoreLatch,
        has_work: impl FnOnce() -> bool,
    ) -> Slept {
        // A share worker that took a core back during its search (it saw work to
        // steal) and then found nothing gives it back now, not once asleep: the rounds
        // below may take milliseconds when threads outnumber cores, and a share
        // waiting for a core would wait for nothing meanwhile.
        super::preempt::worker_idle();
        idle.napped = false;
        if idle.rounds < idle.sleepy_at {
            yield_now();
            idle.rounds += 1;
        } else if idle.rounds == idle.sleepy_at {
            idle.jobs_counter = self.announce_sleepy();
            idle.rounds += 1;
            pause(idle.sleepy_at);
        } else {
            return self.sleep(idle, latch, has_work);
        }
        Slept::Again
    }

    /// Makes the JEC odd (sleepy) if it is not, and returns it.
    fn announce_sleepy(&self) -> u32 {
        let mut c = self.counters.load(Ordering::SeqCst);
        loop {
            if is_sleepy(c) {
                return jec(c);
            }
            match self.counters.compare_exchange_weak(
                c,
                c.wrapping_add(JEC_ONE),
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => return jec(c).wrapping_add(1),
                Err(now) => c = now,
            }
        }
    }

    #[cold]
    fn sleep(
        &self,
        idle: &mut IdleState,
        latch: &CoreLatch,
        has_work: impl FnOnce() -> bool,
    ) -> Slept {
        let state = &self.states[idle.worker_index];
        let mut bed = state.bed.lock().unwrap_or_else(|e| e.into_inner());
        if !latch.fall_asleep() {
            // The latch was set: back to the caller, which will see it.
            idle.rounds = 0;
            return Slept::Again;
        }
        let mut c = self.counters.load(Ordering::SeqCst);
        loop {
            if jec(c) != idle.jobs_counter {
                // New work was announced since we got sleepy: search again.
                latch.wake_up();
                idle.rounds = idle.sleepy_at;
                return Slept::Again;
            }
            match self.counters.compare_exchange_weak(
                c,
                c + SLEEPING_ONE,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => break,
                Err(now) => c = now,
            }
        }
        // Pairs with the fence in `new_injected_jobs`: either we see the injected job, or
        // the injector saw our sleeping count and will wake someone.
        fence(Ordering::SeqCst);
        if has_work() {
            self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
        } else {
            *bed = Bed::Blocked;
            super::stats::note_current(crate::trace::Kind::SleepStart, 0);
            // A thread the pool would not start now (its share runs on fewer cores
            // than it has threads, and may get no more) retires at once rather
            // than after its idle time, and does not nap as the sentinel below:
            // otherwise a thread that a share started while it could use it stays
            // as long as the share keeps another one busy (the sentinel's naps
            // never reach the idle time), whatever the share holds now.
            let spare =
                idle.retire_after.is_some() && self.spare_gate.as_ref().is_some_and(|gate| gate());
            // While another worker runs, one sleeper naps instead: a busy worker's
            // pending join frames wake nobody (see `frames.rs`), so without it a worker
            // that blocks in user code on work still pending in its frames, with
            // every other worker asleep, would wait for ever.
            let someone_runs = (inactive(c) as usize) < self.states.len();
            if !spare && someone_runs && !self.sentinel.swap(true, Ordering::AcqRel) {
                bed = self.nap(state, bed, idle);
                self.sentinel.store(false, Ordering::Release);
            }
            let deadline = idle
                .retire_after
                .map(|d| if spare { Duration::ZERO } else { d })
                .map(|d| Instant::now() + d);
            while *bed == Bed::Blocked {
                match deadline {
                    None => {
                        bed = state.condvar.wait(bed).unwrap_or_else(|e| e.into_inner());
                    }
                    Some(deadline) => {
                        let now = Instant::now();
                        if now >= deadline || self.retire_now.load(Ordering::Relaxed) {
                            // Asleep long enough: retire. Wakers now restart the
                            // worker instead of notifying it (see `wake_specific_thread`).
                            *bed = Bed::Retired;
                            return Slept::Retired;
                        }
                        bed = state
                            .condvar
                            .wait_timeout(bed, deadline - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                }
            }
            // The waker (or the nap's end) took us off the sleeping count.
            super::stats::note_current(crate::trace::Kind::SleepEnd, u32::from(!idle.napped));
        }
        // After a nap, one search and straight back to sleep if it finds nothing.
        idle.rounds = if idle.napped { idle.sleepy_at } else { 0 };
        latch.wake_up();
        Slept::Again
    }

    /// The sentinel's nap: blocked like any sleeper, but for `idle.nap` at most; at its
    /// end the sentinel takes itself off the sleeping count and looks once more
    /// (claiming pending frames), napping longer next time if it finds nothing.
    fn nap<'a>(
        &self,
        state: &'a WorkerSleepState,
        mut bed: MutexGuard<'a, Bed>,
        idle: &mut IdleState,
    ) -> MutexGuard<'a, Bed> {
        let deadline = Instant::now() + idle.nap;
        while *bed == Bed::Blocked {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                *bed = Bed::Awake;
                self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
                idle.napped = true;
                idle.nap = (idle.nap * 2).min(LONGEST_NAP);
                return bed;
            }
            bed = state
                .condvar
                .wait_timeout(bed, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        bed
    }

    /// Wakes worker `index` if it is blocked, or restarts it if it retired; returns
    /// whether it did either.
    pub(crate) fn wake_specific_thread(&self, index: usize) -> bool {
        let state = &self.states[index];
        let mut bed = state.bed.lock().unwrap_or_else(|e| e.into_inner());
        match *bed {
            Bed::Awake => false,
            Bed::Blocked => {
                self.unblock(state, &mut bed);
                true
            }
            Bed::Retired => {
                // Off the sleeping count, and active: the new thread starts as if
                // it had just found work.
                *bed = Bed::Awake;
                self.counters
                    .fetch_sub(SLEEPING_ONE + INACTIVE_ONE, Ordering::SeqCst);
                drop(bed);
                let restart = self.restart.as_ref();
                if restart.expect("only a retiring pool's workers retire")(index) {
                    return true;
                }
                // Its thread could not start: it stays retired, and the caller wakes
                // another worker if it needs one.
                self.back_to_retired(index);
                false
            }
        }
    }

    /// Worker `index`, woken from retirement, could not start: retired again (an
    /// inactive sleeper, as before the wake-up).
    fn back_to_retired(&self, index: usize) {
        let mut bed = self.states[index]
            .bed
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if *bed == Bed::Awake {
            *bed = Bed::Retired;
            self.counters
                .fetch_add(SLEEPING_ONE + INACTIVE_ONE, Ordering::SeqCst);
        }
    }

    /// Worker `index` was woken from retirement while its last thread was still
    /// retiring, and the thread meant to follow could not start: it is retired
    /// again, and one blocked worker, if any, is woken in its place (the work that
    /// woke it must not wait for a thread that never comes).
    pub(crate) fn restart_failed(&self, index: usize) {
        self.back_to_retired(index);
        for state in &self.states {
            let mut bed = state.bed.lock().unwrap_or_else(|e| e.into_inner());
            if *bed == Bed::Blocked {
                self.unblock(state, &mut bed);
                return;
            }
        }
    }

    /// Wakes a blocked worker (its `bed`, locked): awake, and off the sleeping count.
    fn unblock(&self, state: &WorkerSleepState, bed: &mut Bed) {
        *bed = Bed::Awake;
        state.condvar.notify_one();
        self.counters.fetch_sub(SLEEPING_ONE, Ordering::SeqCst);
    }

    /// Whether every worker is retired (no thread runs, none is asleep).
    pub(crate) fn all_retired(&self) -> bool {
        let retired =
            |s: &WorkerSleepState| *s.bed.lock().unwrap_or_else(|e| e.into_inner()) == Bed::Retired;
        self.states.iter().all(|s| retired(s))
    }

    /// Makes the workers asleep in their main loop, now and from now on, retire at
    /// once (the scope of their threads ends).
    pub(crate) fn retire_idle_now(&self) {
        self.retire_now.store(true, Ordering::Relaxed);
        for state in &self.states {
            let bed = state.bed.lock().unwrap_or_else(|e| e.into_inner());
            if *bed == Bed::Blocked {
                // It stays blocked: it sees the flag and retires.
                state.condvar.notify_one();
            }
        }
    }

    /// Before new work wakes a sleeping worker, `gate(starts)` is asked whether
    /// the pool may run it (`starts`: a retired one, whose thread would start);
    /// when it says no, the work waits for the threads the pool runs (the one that published it among them: see
    /// [`Sleep::wake_any_threads`]).
    pub(crate) fn with_start_gate(mut self, gate: StartGate) -> Self {
        self.start_gate = Some(gate);
        self
    }

    /// Before a worker of a retiring pool blocks, `gate()` is asked whether its
    /// thread is one too many (one the pool would not start now): it then retires
    /// at once instead of after its idle time. Retiring is the same step as after
    /// the idle time, so no wake-up is lost: a retired worker is still counted
    /// asleep, and waking it restarts it.
    pub(crate) fn with_spare_gate(mut self, gate: SpareGate) -> Self {
        self.spare_gate = Some(gate);
        self
    }

    /// Wakes up to `n` sleeping workers for new work: blocked ones first (their
    /// threads exist), then retired ones (a new thread each), as far as the start
    /// gate, if any, lets: a sleeper it does not wake retires in time. Returns how
    /// many it woke.
    ///
    /// A refusal loses no wake-up: the gate refuses only work that a worker of
    /// the pool published, and that worker looks at every queue of the pool
    /// before it sleeps.
    fn wake_any_threads(&self, n: u32) -> u32 {
        let may = |start: bool| self.start_gate.as_ref().is_none_or(|gate| gate(start));
        let mut woken = 0;
        if may(false) {
            woken = self.wake_blocked_threads(n);
        }
        if self.restart.is_none() {
            return woken;
        }
        for index in 0..self.states.len() {
            if woken == n {
                break;
            }
            if !self.is_retired(index) {
                continue;
            }
            if !may(true) {
                break;
            }
            if self.wake_specific_thread(index) {
                woken += 1;
            }
        }
        woken
    }

    /// Wakes up to `n` blocked workers (no retired one); returns how many.
    fn wake_blocked_threads(&self, n: u32) -> u32 {
        let mut woken = 0;
        for state in &self.states {
            if woken == n {
                break;
            }
            let mut bed = state.bed.lock().unwrap_or_else(|e| e.into_inner());
            if *bed == Bed::Blocked {
                self.unblock(state, &mut bed);
                woken += 1;
            }
        }
        woken
    }

    /// Starts one retired worker's thread, whatever the start gate would say;
    /// returns whether there was one.
    pub(crate) fn wake_one_retired(&self) -> bool {
        (0..self.states.len())
            .any(|index| self.is_retired(index) && self.wake_specific_thread(index))
    }

    /// Whether worker `index`'s thread has retired (or never started).
    fn is_retired(&self, index: usize) -> bool {
        *self.states[index]
            .bed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            == Bed::Retired
    }

    /// `n` jobs were pushed by a worker on its own deque (after the push). A push onto an
    /// empty deque is fenced like an injection, so a worker falling asleep either sees the
    /// deque non-empty in its final check or is seen asleep here; a push onto a non-empty
    /// deque needs no fence, since the sleeper's final check sees the older job (or the
    /// owner is still busy with it and pushes again later). Returns whether some worker
    /// was idle (looking for work or asleep), for the pusher to make the job stealable
    /// now if its deque keeps jobs private (BWoS).
    #[inline]
    pub(crate) fn new_internal_jobs(&self, n: u32, queue_was_empty: bool) -> Announced {
        if queue_was_empty {
            // Pairs with the fence in `sleep`.
            fence(Ordering::SeqCst);
        }
        self.new_jobs(n, queue_was_empty)
    }

    /// `n` jobs were injected from outside the pool (after the push).
    #[inline]
    pub(crate) fn new_injected_jobs(&self, n: u32, queue_was_empty: bool) -> Announced {
        // Pairs with the fence in `sleep`.
        fence(Ordering::SeqCst);
        self.new_jobs(n, queue_was_empty)
    }

    /// Wakes sleepers if needed; says whether some worker was idle and how many
    /// sleepers it woke.
    #[inline]
    fn new_jobs(&self, n: u32, queue_was_empty: bool) -> Announced {
        let mut c = self.counters.load(Ordering::SeqCst);
        while is_sleepy(c) {
            match self.counters.compare_exchange_weak(
                c,
                c.wrapping_add(JEC_ONE),
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => break,
                Err(now) => c = now,
            }
        }
        let woken = if sleeping(c) != 0 {
            self.new_jobs_cold(n, queue_was_empty, c)
        } else {
            0
        };
        Announced {
            idle: inactive(c) != 0,
            woken,
        }
    }

    #[cold]
    fn new_jobs_cold(&self, n: u32, queue_was_empty: bool, c: u64) -> u32 {
        let sleepers = sleeping(c);
        let awake_idle = inactive(c).saturating_sub(sleepers);
        if !queue_was_empty {
            self.wake_any_threads(n.min(sleepers))
        } else if awake_idle < n {
            self.wake_any_threads((n - awake_idle).min(sleepers))
        } else {
            0
        }
    }

    /// Number of workers currently asleep (for tests).
    #[cfg(test)]
    pub(crate) fn sleeping_threads(&self) -> usize {
        sleeping(self.counters.load(Ordering::SeqCst)) as usize
    }
}
