//! The permits with real threads: every worker gets its cores, the proportions
//! hold roughly, and at most P workers ever run at once.

use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Barrier};

use crate::shares::allocator::Config;
use crate::shares::permits::Permits;

/// The strict protocol: a worker runs only between its grant and its release or
/// yield. (With the rule that a holder whose processor another holder took gives its
/// core up at once, such a holder runs on to its safe point without a core; that
/// rule is off here, as the threads below share the processors at random.)
#[test]
fn never_more_holders_than_permits() {
    let permits = Arc::new(Permits::new(Config::new(2)).without_off_core_rule());
    let a = permits.add_share(permits.root(), 3).unwrap();
    let b = permits.add_share(permits.root(), 1).unwrap();
    let running = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..6)
        .map(|i| {
            let (permits, running, done) = (permits.clone(), running.clone(), done.clone());
            let h = permits.register_worker();
            let share = if i % 2 == 0 { a } else { b };
            std::thread::spawn(move || {
                for _ in 0..200 {
                    permits.acquire(&h, share);
                    assert!(
                        running.fetch_add(1, SeqCst) < 2,
                        "more holders than permits"
                    );
                    std::hint::spin_loop();
                    if h.should_yield() {
                        running.fetch_sub(1, SeqCst);
                        permits.yield_now(&h);
                        assert!(running.fetch_add(1, SeqCst) < 2);
                    }
                    running.fetch_sub(1, SeqCst);
                    permits.release(&h);
                    done.fetch_add(1, SeqCst);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(done.load(SeqCst), 1200);
    permits.check();
    let (sa, sb) = (permits.stats(a), permits.stats(b));
    assert_eq!(sa.grants - sa.preemptions, 600);
    assert_eq!(sb.grants - sb.preemptions, 600);
}

#[test]
fn busy_shares_get_cores_in_proportion() {
    // Two shares, 3:1, two workers each, on two permits; each worker counts the
    // work it does while holding its core and yields when asked. Generous bound:
    // the 3-ticket share holds cores between 1.5x and 6x as long as the 1-ticket
    // share (real threads: on a heavily loaded machine the OS deschedules holders
    // mid-quantum, which blurs the 3x; `examples/shares` measures the accuracy).
    let mut config = Config::new(2);
    config.quantum_nanos = 1_000_000;
    let permits = Arc::new(Permits::new(config));
    let shares = [
        permits.add_share(permits.root(), 3).unwrap(),
        permits.add_share(permits.root(), 1).unwrap(),
    ];
    let work = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let start = Arc::new(Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let (permits, work, start) = (permits.clone(), work.clone(), start.clone());
            let h = permits.register_worker();
            let s = i % 2;
            std::thread::spawn(move || {
                start.wait();
                permits.acquire(&h, shares[s]);
                let t0 = permits.now();
                while permits.now() - t0 < 300_000_000 {
                    work[s].fetch_add(1, SeqCst);
                    if h.should_yield() {
                        permits.yield_now(&h);
                    }
                }
                permits.release(&h);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    permits.check();
    let (a, b) = (permits.stats(shares[0]), permits.stats(shares[1]));
    let ratio = a.core_nanos as f64 / b.core_nanos.max(1) as f64;
    assert!(
        (1.5..=6.0).contains(&ratio),
        "core time ratio {ratio} ({a:?} vs {b:?})"
    );
}

/// Not a test: prints the cost of the allocator's operations (lock included).
/// `cargo test --release --lib permit_costs -- --ignored --nocapture`
#[test]
#[ignore]
fn permit_costs() {
    use std::time::Instant;
    for shares in [1usize, 3, 16] {
        let permits = Permits::new(Config::new(8));
        let ids: Vec<_> = (0..shares)
            .map(|i| {
                permits
                    .add_share(permits.root(), 100 * (i as u32 + 1))
                    .unwrap()
            })
            .collect();
        let h = permits.register_worker();
        let n = 200_000u32;
        let t0 = Instant::now();
        for i in 0..n {
            permits.acquire(&h, ids[i as usize % shares]);
            permits.release(&h);
        }
        let per = t0.elapsed().as_nanos() as f64 / f64::from(n);
        let t0 = Instant::now();
        let mut flagged = 0u32;
        for _ in 0..n {
            flagged += u32::from(std::hint::black_box(&h).should_yield());
        }
        let check = t0.elapsed().as_nanos() as f64 / f64::from(n);
        println!(
            "{shares} shares: acquire+release {per:.0} ns, safe-point check {check:.2} ns ({flagged})"
        );
    }
}

#[test]
fn unregistered_worker_ids_are_reused() {
    let permits = Permits::new(Config::new(1));
    let s = permits.add_share(permits.root(), 1).unwrap();
    for _ in 0..100 {
        let h = permits.register_worker();
        permits.acquire(&h, s);
        permits.release(&h);
        permits.unregister_worker(&h);
    }
    permits.check();
    assert_eq!(permits.with(|a| a.worker_slots()), 1);
}

#[test]
fn a_woken_worker_is_charged_from_when_it_runs_not_from_its_grant() {
    use crate::shares::allocator::Allocator;
    let mut alloc = Allocator::new(Config::new(1));
    let s = alloc.add_share(alloc.root(), 1).unwrap();
    let (first, second) = (alloc.add_worker(), alloc.add_worker());
    alloc.request(first, s, 0);
    alloc.request(second, s, 0);
    // The core passes to `second` at 100; the OS runs it only at 600.
    assert_eq!(alloc.release(first, 100), vec![second]);
    alloc.start_clock(second, 600);
    alloc.release(second, 1_000);
    alloc.check();
    assert_eq!(alloc.stats(s).core_nanos, 100 + 400);
}

/// Workers of a share defer to a more entitled share's threads at their paced
/// safe points only while both compete: never alone, never the top share itself,
/// and nobody between two shares of equal tickets.
#[test]
fn workers_defer_only_to_a_competing_share_worth_more() {
    let permits = Permits::new(Config::new(2));
    let fg = permits.add_share(permits.root(), 900).unwrap();
    let bg = permits.add_share(permits.root(), 100).unwrap();
    let even = permits.add_share(permits.root(), 100).unwrap();
    let (f, b, e) = (
        permits.register_worker(),
        permits.register_worker(),
        permits.register_worker(),
    );
    permits.acquire_at(&b, bg, 0);
    assert!(!permits.defers_to_other(bg), "alone");
    permits.acquire_at(&f, fg, 1_000);
    assert!(
        permits.defers_to_other(bg),
        "the background, while both run"
    );
    assert!(!permits.defers_to_other(fg), "the foreground itself");
    // The foreground's call ends: it still counts a moment (its next call is
    // likely near), and once that is over the background is alone again.
    permits.release_at(&f, 2_000);
    assert!(permits.defers_to_other(bg), "between two calls");
    permits.release_at(&b, 100_000_000);
    permits.acquire_at(&b, bg, 100_000_000);
    assert!(!permits.defers_to_other(bg), "alone again");
    // Two shares of equal tickets: neither defers to the other.
    permits.acquire_at(&e, even, 100_001_000);
    assert!(!permits.defers_to_other(bg) && !permits.defers_to_other(even));
    permits.check();
}

/// Two cores, a background share of 100 tickets holding both, a foreground one of
/// 900: the background's `b0` gives its core to the foreground's `f0`, whose thread
/// the OS runs on the processor where `b1` ran (the two last noted on the same
/// one). Returns `(permits, [f0, f1, b0, b1], fg, bg)`.
fn foreground_on_a_holders_processor() -> (
    Arc<Permits>,
    [crate::shares::permits::WorkerHandle; 4],
    crate::shares::tree::ShareId,
    crate::shares::tree::ShareId,
) {
    let permits = Arc::new(Permits::new(Config::new(2)));
    let fg = permits.add_share(permits.root(), 900).unwrap();
    let bg = permits.add_share(permits.root(), 100).unwrap();
    let w: [_; 4] = std::array::from_fn(|_| permits.register_worker());
    permits.acquire_at(&w[2], bg, 0);
    permits.acquire_at(&w[3], bg, 0);
    permits.release_at(&w[2], 1_000);
    permits.acquire_at(&w[0], fg, 2_000);
    w[0].set_cpu(1);
    w[3].set_cpu(1);
    (permits, w, fg, bg)
}

/// A holder asked for its core whose processor another holder's thread runs on
/// cannot reach its safe point: it gives the core up at once, and the woken worker
/// of the share due the core gets it without waiting for that safe point. The
/// holder's thread then waits for a core at its safe point like any other.
#[test]
fn a_holder_whose_processor_another_holder_took_gives_its_core_at_once() {
    let (permits, w, fg, bg) = foreground_on_a_holders_processor();
    // f0 publishes work and wakes f1: b1 is asked for its core.
    permits.anticipate(fg, 1);
    assert!(w[3].flagged(), "the background's holder is asked");
    assert!(!permits.holds(&w[3]), "b1 gave its core up");
    // f1 runs and asks: the core b1 could not give yet is its.
    permits.acquire_at(&w[1], fg, 5_000);
    assert!(permits.holds(&w[1]));
    permits.check();
    // b1's thread gets the processor back and reaches its safe point: it waits
    // for a core until the foreground's workers are done.
    let b1 = std::thread::scope(|s| {
        let t = s.spawn(|| permits.yield_at(&w[3], 6_000));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!t.is_finished(), "b1 waits while the foreground holds both");
        permits.release_at(&w[0], 7_000);
        permits.release_at(&w[1], 7_000);
        t.join()
    });
    b1.unwrap();
    assert!(permits.holds(&w[3]));
    permits.release_at(&w[3], 8_000);
    permits.check();
    let _ = bg;
}

/// The same, but b1's thread runs out of work before its next safe point: it
/// leaves the queue it was put in, and nothing is left holding or waiting.
#[test]
fn a_holder_whose_core_was_given_up_may_run_out_of_work_first() {
    let (permits, w, fg, _) = foreground_on_a_holders_processor();
    permits.anticipate(fg, 1);
    assert!(!permits.holds(&w[3]));
    permits.release_at(&w[3], 6_000);
    permits.check();
    permits.acquire_at(&w[1], fg, 7_000);
    assert!(permits.holds(&w[1]));
    permits.release_at(&w[0], 8_000);
    permits.release_at(&w[1], 8_000);
    permits.check();
}

/// Holders on different processors are left to reach their safe points.
#[test]
fn holders_on_their_own_processors_keep_their_cores_until_their_safe_points() {
    let (permits, w, fg, _) = foreground_on_a_holders_processor();
    w[3].set_cpu(0);
    permits.anticipate(fg, 1);
    assert!(w[3].flagged() && permits.holds(&w[3]));
    permits.yield_at(&w[3], 6_000);
    permits.check();
}

/// A holder at its paced safe point whose processor another holder's thread was
/// last seen on naps, so that the OS places its thread again, if it may run on
/// another processor, once per hold; its affinity is never changed. A holder
/// alone on its processor, and a worker that holds no core, do not nap.
#[cfg(target_os = "linux")]
#[test]
fn a_holder_sharing_its_processor_with_another_holder_naps() {
    fn affinity() -> Vec<usize> {
        // SAFETY: all zeroes is the empty set; the call fills it for this thread.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: a valid set of `size` bytes, for the calling thread.
        assert_eq!(unsafe { libc::sched_getaffinity(0, size, &mut set) }, 0);
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: `c` is below CPU_SETSIZE.
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect()
    }
    let (permits, w, fg, _) = foreground_on_a_holders_processor();
    std::thread::scope(|s| {
        s.spawn(|| {
            let before = affinity();
            // f0 and b1 hold; b1 was last seen elsewhere.
            w[0].set_cpu(1);
            w[3].set_cpu(0);
            assert!(!permits.spread(&w[0]), "alone on its processor");
            assert_eq!(w[0].cpu(), 1, "nothing noted");
            // Both on processor 1: f0 naps, if it may run on another.
            w[3].set_cpu(1);
            let napped = permits.spread(&w[0]);
            assert_eq!(napped, before.contains(&1) && before.len() >= 2);
            if napped {
                assert_ne!(w[0].cpu(), -1, "where it runs now is noted");
                // Still beside b1: no second nap until f0 gets a core again.
                w[0].set_cpu(1);
                assert!(!permits.spread(&w[0]), "one nap per hold");
                permits.release_at(&w[0], 3_000);
                permits.acquire_at(&w[0], fg, 4_000);
                assert!(permits.holds(&w[0]));
                assert!(permits.spread(&w[0]), "a new hold, a new nap");
            }
            // f1 holds no core: it never naps, wherever it runs.
            w[1].set_cpu(1);
            assert!(!permits.spread(&w[1]), "a worker without a core");
            assert_eq!(affinity(), before, "its processors are what they were");
        });
    });
    permits.check();
}

/// The allocator takes a holder's own recent reading of its CPU time instead of
/// reading its thread's clock (a system call under the lock), and reads the clock
/// when the reading is older than a quarter of a quantum.
#[test]
fn a_holders_recent_reading_stands_for_its_clock() {
    if !crate::shares::thread_clock::AVAILABLE {
        return;
    }
    let mut config = Config::new(1);
    config.own_clocks = true;
    config.quantum_nanos = 4_000_000;
    let permits = Permits::new(config);
    let s = permits.add_share(permits.root(), 1).unwrap();
    let h = permits.register_worker();
    permits.acquire(&h, s);
    // Let the permits' clock pass a quantum, so that a reading can be old.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let now = permits.now();
    h.set_published_time(7, now);
    assert_eq!(permits.time_noted_for(&h), 7, "a fresh reading is used");
    h.set_published_time(7, now - 1_000_001);
    let read = permits.time_noted_for(&h);
    assert!(read > 7, "an old reading is replaced by the clock ({read})");
    // A holder that gives its core back is charged to the end of its hold, read
    // from its clock, whatever it published.
    h.set_published_time(7, permits.now());
    permits.release(&h);
    permits.check();
}
