//! Loom models of the permits (`RUSTFLAGS="--cfg loom" cargo test --release --lib loom`).
//! Each proves, over every interleaving of a small scenario: no permit is lost or
//! duplicated (the allocator's `check`), at most P workers hold a core at once (a
//! counter), and every waiter is woken when a core frees for its share (otherwise
//! loom reports a deadlock: all threads blocked).

use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use crate::shares::allocator::Config;
use crate::shares::permits::{Permits, WorkerHandle};
use crate::shares::tree::ShareId;

fn permits(cores: u32) -> Arc<Permits> {
    let mut config = Config::new(cores);
    config.quantum_nanos = 10;
    // The models' clock is virtual; a kept core would lapse by the real one.
    config.hold_nanos = 0;
    Arc::new(Permits::new(config))
}

/// Takes a core, checks the bound, gives it back.
fn work(p: &Permits, h: &WorkerHandle, share: ShareId, running: &AtomicUsize, cores: usize) {
    p.acquire_at(h, share, 0);
    assert!(
        running.fetch_add(1, SeqCst) < cores,
        "more holders than permits"
    );
    running.fetch_sub(1, SeqCst);
    p.release_at(h, 1);
}

/// Three workers — one of share `a`, one of `b`, and the main thread on `a` or
/// `b` — each take a core once on `cores` permits.
fn three_workers(cores: u32, tickets: [u32; 2], main_on_b: bool) {
    loom::model(move || {
        let p = permits(cores);
        let a = p.add_share(p.root(), tickets[0]).unwrap();
        let b = p.add_share(p.root(), tickets[1]).unwrap();
        let running = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = [a, b]
            .into_iter()
            .map(|s| {
                let (p, running) = (p.clone(), running.clone());
                let h = p.register_worker();
                loom::thread::spawn(move || work(&p, &h, s, &running, cores as usize))
            })
            .collect();
        let h = p.register_worker();
        work(
            &p,
            &h,
            if main_on_b { b } else { a },
            &running,
            cores as usize,
        );
        for t in threads {
            t.join().unwrap();
        }
        p.check();
    });
}

#[test]
fn loom_one_permit_three_workers_two_shares() {
    three_workers(1, [3, 1], false);
}

#[test]
fn loom_two_permits_three_workers() {
    three_workers(2, [1, 1], true);
}

#[test]
fn loom_preempted_holder_hands_its_core_over() {
    // The holder of `a` is flagged by a tick while `b` waits; it yields at its safe
    // point, `b` runs, and `a` gets the core back when `b` releases it.
    loom::model(|| {
        let p = permits(1);
        let a = p.add_share(p.root(), 1).unwrap();
        let b = p.add_share(p.root(), 1).unwrap();
        let ha = p.register_worker();
        let hb = p.register_worker();
        p.acquire_at(&ha, a, 0);
        let waiter = {
            let p = p.clone();
            loom::thread::spawn(move || {
                p.acquire_at(&hb, b, 0);
                p.release_at(&hb, 30);
            })
        };
        let ticker = {
            let p = p.clone();
            loom::thread::spawn(move || p.tick_at(20))
        };
        ticker.join().unwrap();
        if ha.should_yield() {
            p.yield_at(&ha, 25);
        }
        p.release_at(&ha, 40);
        waiter.join().unwrap();
        p.check();
    });
}

#[test]
fn loom_timekeeping_passes_to_a_waiter_that_stays() {
    // Two workers wait while a third holds the only core; one of them is the
    // timekeeper. Whichever gets the core first, the duty passes to the other if
    // it still waits (or to nobody once neither does): a worker never sleeps
    // without a timekeeper that waits (a debug assertion), and none is left over
    // at the end (`check`).
    loom::model(|| {
        let p = permits(1);
        let a = p.add_share(p.root(), 1).unwrap();
        let b = p.add_share(p.root(), 1).unwrap();
        let c = p.add_share(p.root(), 1).unwrap();
        let ha = p.register_worker();
        p.acquire_at(&ha, a, 0);
        let waiters: Vec<_> = [(b, 10), (c, 20)]
            .into_iter()
            .map(|(s, t)| {
                let p = p.clone();
                let h = p.register_worker();
                loom::thread::spawn(move || {
                    p.acquire_at(&h, s, t);
                    p.release_at(&h, t + 50);
                })
            })
            .collect();
        p.release_at(&ha, 30);
        for w in waiters {
            w.join().unwrap();
        }
        p.check();
    });
}

#[test]
fn loom_cores_lowered_then_raised_while_both_hold() {
    // Two workers of one share take a core each on 2 permits; meanwhile the
    // cores are lowered to 1 (a holder is flagged; the core given back first
    // vanishes) and raised to 2 again (it pays the excess off, or comes free for
    // a worker that yielded and waits). Whatever the order, no permit is lost
    // or duplicated (`check`, also after each change), and a worker that yielded
    // is woken by the raise or a release (otherwise loom reports a deadlock).
    loom::model(|| {
        let p = permits(2);
        let a = p.add_share(p.root(), 1).unwrap();
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let p = p.clone();
                let h = p.register_worker();
                loom::thread::spawn(move || {
                    p.acquire_at(&h, a, 0);
                    if h.should_yield() {
                        p.yield_at(&h, 10);
                    }
                    p.release_at(&h, 20);
                })
            })
            .collect();
        p.set_cores_at(1, 5);
        p.check();
        p.set_cores_at(2, 15);
        p.check();
        for w in workers {
            w.join().unwrap();
        }
        p.check();
        assert_eq!(p.cores(), 2);
    });
}

#[test]
fn loom_cores_lowered_with_a_waiter() {
    // Lowered from 2 cores to 1 while two workers ask for one: if both got a
    // core, one is flagged and gives it back, and it vanishes; a worker that
    // yielded gets a core again only once the holders fit, never beside the
    // other holder (the count of running holders, kept inside each holding).
    loom::model(|| {
        let p = permits(2);
        let a = p.add_share(p.root(), 1).unwrap();
        let running = Arc::new(AtomicUsize::new(0));
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (p, running) = (p.clone(), running.clone());
                let h = p.register_worker();
                loom::thread::spawn(move || {
                    p.acquire_at(&h, a, 0);
                    running.fetch_add(1, SeqCst);
                    if h.should_yield() {
                        running.fetch_sub(1, SeqCst);
                        p.yield_at(&h, 10);
                        // The cores are 1 now, with no excess left.
                        assert_eq!(running.fetch_add(1, SeqCst), 0, "two holders on 1 core");
                    }
                    running.fetch_sub(1, SeqCst);
                    p.release_at(&h, 20);
                })
            })
            .collect();
        p.set_cores_at(1, 5);
        p.check();
        for w in workers {
            w.join().unwrap();
        }
        p.check();
        assert_eq!(p.cores(), 1);
    });
}
