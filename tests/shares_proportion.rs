//! Competing shares get the cores in proportion to their tickets, measured from
//! outside by the items each one's `par_iter` completes in a window. Its own test
//! binary, so that no other test competes for the cores meanwhile; bounds are
//! generous (the machine is small and shared), and no timing is asserted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{SharePolicy, ThreadPoolBuilder};

mod common;
use common::work::spin;

/// Runs one CPU-bound `par_iter` per share until `window` is over; returns the
/// items each did.
fn compete(policy: SharePolicy, tickets: &[u32], window: Duration) -> Vec<u64> {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_policy(policy)
        .build()
        .unwrap();
    let shares: Vec<_> = tickets.iter().map(|&t| pool.share(t).unwrap()).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let done: Vec<AtomicU64> = tickets.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&done) {
            let stop = &stop;
            s.spawn(move || {
                share.install(|| {
                    // Many more items than the window allows; after `stop` they cost nothing.
                    (0..20_000_000usize).into_par_iter().for_each(|i| {
                        if !stop.load(Ordering::Relaxed) {
                            std::hint::black_box(spin(i as u64));
                            count.fetch_add(1, Ordering::Relaxed);
                        }
                    })
                })
            });
        }
        let t0 = Instant::now();
        while t0.elapsed() < window {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    done.iter().map(|c| c.load(Ordering::Relaxed)).collect()
}

/// A 3:1 split in the bounds, in one of three windows: a window in which another
/// process takes a core for long stretches can fall outside (the bounds are about the
/// allocator, not about the machine's other load), three in a row cannot by chance.
fn three_to_one_within(policy: SharePolicy, bounds: std::ops::RangeInclusive<f64>) {
    let mut seen = Vec::new();
    for _ in 0..3 {
        let done = compete(policy, &[3, 1], Duration::from_millis(800));
        if bounds.contains(&(done[0] as f64 / done[1].max(1) as f64)) {
            return;
        }
        seen.push(done);
    }
    panic!("{policy:?}: 3:1 outside {bounds:?} in every window: {seen:?}");
}

#[test]
fn three_to_one_gets_about_three_times_the_items() {
    three_to_one_within(SharePolicy::Stride, 2.0..=4.0);
    // Lottery is noisier over short windows: a wider bound.
    three_to_one_within(SharePolicy::Lottery, 1.5..=6.0);
}

/// Eight workers per share but two core permits (`share_cores(2)`): shares divide
/// cores, not workers. A 3:1 split still completes every item, with the same
/// results as a sequential run, and the 3-ticket share does between 2x and 4x the
/// items of the 1-ticket share while both compete (items after the window cost
/// nothing but are still computed).
#[test]
fn eight_workers_on_two_permits_keep_the_split_and_the_results() {
    // More items than the window allows even for the 3-ticket share alone, so
    // both compete for the whole window.
    const N: usize = 10_000_000;
    let pool = ThreadPoolBuilder::new()
        .num_threads(8)
        .share_cores(2)
        .build()
        .unwrap();
    let shares = [pool.share(3).unwrap(), pool.share(1).unwrap()];
    assert_eq!(shares[0].current_num_threads(), 8);
    let stop = AtomicBool::new(false);
    let done = [AtomicU64::new(0), AtomicU64::new(0)];
    let results: Vec<Vec<u32>> = std::thread::scope(|s| {
        let handles: Vec<_> = shares
            .iter()
            .zip(&done)
            .map(|(share, count)| {
                let stop = &stop;
                s.spawn(move || {
                    share.install(|| {
                        (0..N)
                            .into_par_iter()
                            .map(|i| {
                                if !stop.load(Ordering::Relaxed) {
                                    std::hint::black_box(spin(spin(i as u64)));
                                    count.fetch_add(1, Ordering::Relaxed);
                                }
                                (i as u32).wrapping_mul(0x9E37_79B9) ^ 0x5555
                            })
                            .collect()
                    })
                })
            })
            .collect();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(800) {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let want: Vec<u32> = (0..N)
        .map(|i| (i as u32).wrapping_mul(0x9E37_79B9) ^ 0x5555)
        .collect();
    for r in &results {
        assert!(r == &want, "results differ from the sequential run");
    }
    let done: Vec<u64> = done.iter().map(|c| c.load(Ordering::Relaxed)).collect();
    let ratio = done[0] as f64 / done[1].max(1) as f64;
    assert!(
        (2.0..=4.0).contains(&ratio),
        "8 workers, 2 permits: {done:?}"
    );
}

/// Transfer on the real pool: a thread of share A (3 tickets) blocked in
/// `b.install(f)` lends A's tickets to B (1 ticket) until `f` returns, so B
/// computes with 4 tickets against C's 1 (about 4x C's items; without the lend it
/// would be about 1x). Generous bound: B does at least 1.5x the items of C.
#[test]
fn a_blocked_lender_gives_its_tickets_to_the_share_it_waits_on() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let a = pool.share(3).unwrap();
    let b = pool.share(1).unwrap();
    let c = pool.share(1).unwrap();
    let stop = AtomicBool::new(false);
    let (done_b, done_c) = (AtomicU64::new(0), AtomicU64::new(0));
    let work = |count: &AtomicU64| {
        (0..20_000_000usize).into_par_iter().for_each(|i| {
            if !stop.load(Ordering::Relaxed) {
                std::hint::black_box(spin(i as u64));
                count.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    std::thread::scope(|s| {
        // A's worker blocks in b.install: B runs with A's tickets too.
        s.spawn(|| a.install(|| b.install(|| work(&done_b))));
        s.spawn(|| c.install(|| work(&done_c)));
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(800) {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    let (nb, nc) = (done_b.into_inner(), done_c.into_inner());
    assert!(
        nb as f64 >= 1.5 * nc.max(1) as f64,
        "B (lent A's 3 tickets) did {nb} items, C did {nc}"
    );
}

/// An explicit loan (`Share::lend_to`) from two lenders that do nothing but wait:
/// B (1 ticket) computes with A's 2 and C's 1 on top of its own, against D (1):
/// about 4x D's items (1x without the loans). Generous bound: at least 1.5x.
#[test]
fn explicit_loans_from_two_lenders_add_up() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let (a, b, c, d) = (
        pool.share(2).unwrap(),
        pool.share(1).unwrap(),
        pool.share(1).unwrap(),
        pool.share(1).unwrap(),
    );
    let stop = AtomicBool::new(false);
    let (done_b, done_d) = (AtomicU64::new(0), AtomicU64::new(0));
    let work = |count: &AtomicU64| {
        (0..20_000_000usize).into_par_iter().for_each(|i| {
            if !stop.load(Ordering::Relaxed) {
                std::hint::black_box(spin(i as u64));
                count.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let loans = (a.lend_to(&b).unwrap(), c.lend_to(&b).unwrap());
    std::thread::scope(|s| {
        s.spawn(|| b.install(|| work(&done_b)));
        s.spawn(|| d.install(|| work(&done_d)));
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(800) {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    drop(loans);
    let (nb, nd) = (done_b.into_inner(), done_d.into_inner());
    assert!(
        nb as f64 >= 1.5 * nd.max(1) as f64,
        "B (lent 3 tickets) did {nb} items, D did {nd}"
    );
}

/// The pool's own jobs take part: once the pool has a share, a plain
/// `pool.install(par_iter)` competes as the root share's tickets (100, the
/// default, against the share's 300): the share does about 3x the items of the
/// pool's own job. Generous bounds (2x to 4.5x); the pool reports its core time.
#[test]
fn the_pools_own_jobs_compete_with_their_root_tickets() {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .root_tickets(100)
        .build()
        .unwrap();
    let share = pool.share(300).unwrap();
    let stop = AtomicBool::new(false);
    let (done_pool, done_share) = (AtomicU64::new(0), AtomicU64::new(0));
    let work = |count: &AtomicU64| {
        (0..20_000_000usize).into_par_iter().for_each(|i| {
            if !stop.load(Ordering::Relaxed) {
                std::hint::black_box(spin(i as u64));
                count.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    std::thread::scope(|s| {
        s.spawn(|| pool.install(|| work(&done_pool)));
        s.spawn(|| share.install(|| work(&done_share)));
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(800) {
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, Ordering::Relaxed);
    });
    let (np, ns) = (done_pool.into_inner(), done_share.into_inner());
    let ratio = ns as f64 / np.max(1) as f64;
    assert!((2.0..=4.5).contains(&ratio), "share {ns} items, pool {np}");
    let st = pool.stats();
    assert!(st.core_time > Duration::ZERO && st.grants >= 1, "{st:?}");
}
