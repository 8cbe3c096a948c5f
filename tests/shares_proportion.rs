//! Competing shares get the cores in proportion to their tickets, measured by the
//! core time each is charged in a window and, from outside, by the items each
//! one's `par_iter` completes in it. Its own test binary, and its tests take turns
//! (`one_at_a_time`), so that no other test competes for the cores meanwhile;
//! bounds are generous (the machine is small and shared), and no timing is
//! asserted.

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{SharePolicy, ShareStats, ThreadPoolBuilder};

mod common;
use common::work::{one_at_a_time, spin};

/// How long each window lets the shares compete.
const WINDOW: Duration = Duration::from_millis(800);

/// What one window measured for two competing computations: the items each
/// completed, and the core time each was charged (read when the window ended).
struct Window {
    items: [u64; 2],
    core_time: [Duration; 2],
}

impl Window {
    fn new(items: [&AtomicU64; 2], stats: [ShareStats; 2]) -> Self {
        Window {
            items: items.map(|n| n.load(Ordering::Relaxed)),
            core_time: stats.map(|s| s.core_time),
        }
    }

    /// The first computation's items over the second's.
    fn items_ratio(&self) -> f64 {
        self.items[0] as f64 / self.items[1].max(1) as f64
    }

    /// The first computation's core time over the second's.
    fn core_ratio(&self) -> f64 {
        self.core_time[0].as_secs_f64() / self.core_time[1].as_secs_f64().max(1e-9)
    }

    fn describe(&self) -> String {
        format!(
            "items {:?} ({:.2}), core time {:?} ({:.2})",
            self.items,
            self.items_ratio(),
            self.core_time,
            self.core_ratio()
        )
    }
}

/// The split a window must show, as the first computation's part over the
/// second's: of the core time the allocator charged (what it divides: close to
/// the tickets' ratio), and of the items completed (what a user sees, generous:
/// on this small shared machine a share's items per second of core time move by a
/// third between windows, as one of the two virtual cores runs slower for a while
/// or another process takes it).
struct Split {
    core: RangeInclusive<f64>,
    items: RangeInclusive<f64>,
}

/// A 3:1 split by tickets.
const THREE_TO_ONE: Split = Split {
    core: 2.5..=3.5,
    items: 2.0..=4.5,
};

/// A 4:1 split by tickets, checked on one side: the side a missing transfer of
/// tickets would miss (it would split 1:1).
const FOUR_TO_ONE_AT_LEAST: Split = Split {
    core: 2.5..=f64::INFINITY,
    items: 1.5..=f64::INFINITY,
};

/// Measures `window` until it shows `split`, three times at most; panics with
/// every window seen if none does. One window can miss on a small shared machine
/// (the items, as [`Split`] says; the core time, if another process held a core
/// through much of it): the bounds are about the allocator, not the machine, and
/// three windows in a row do not miss by chance.
fn in_one_of_three_windows(what: &str, split: Split, mut window: impl FnMut() -> Window) {
    let mut seen = Vec::new();
    for _ in 0..3 {
        let w = window();
        if split.core.contains(&w.core_ratio()) && split.items.contains(&w.items_ratio()) {
            return;
        }
        seen.push(w.describe());
    }
    panic!(
        "{what}: core time not within {:?} of the other's or items not within {:?} in every window: {seen:#?}",
        split.core, split.items
    );
}

/// Lets the computations already started compete for [`WINDOW`], then raises
/// `stop`.
fn compete_for_a_window(stop: &AtomicBool) {
    let t0 = Instant::now();
    while t0.elapsed() < WINDOW {
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, Ordering::Relaxed);
}

/// Counts in `count` the items of a long CPU-bound `par_iter` until `stop`
/// (after it, the remaining items cost nothing).
fn count_items(stop: &AtomicBool, count: &AtomicU64) {
    (0..20_000_000usize).into_par_iter().for_each(|i| {
        if !stop.load(Ordering::Relaxed) {
            std::hint::black_box(spin(i as u64));
            count.fetch_add(1, Ordering::Relaxed);
        }
    })
}

/// Runs one CPU-bound `par_iter` per share of a 2-worker pool until the window
/// is over.
fn compete(policy: SharePolicy, tickets: [u32; 2]) -> Window {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_policy(policy)
        .build()
        .unwrap();
    let shares = tickets.map(|t| pool.share(t).unwrap());
    let stop = AtomicBool::new(false);
    let done = [AtomicU64::new(0), AtomicU64::new(0)];
    std::thread::scope(|s| {
        for (share, count) in shares.iter().zip(&done) {
            let stop = &stop;
            s.spawn(move || share.install(|| count_items(stop, count)));
        }
        compete_for_a_window(&stop);
        Window::new([&done[0], &done[1]], [shares[0].stats(), shares[1].stats()])
    })
}

#[test]
fn three_to_one_gets_about_three_times_the_items() {
    let _turn = one_at_a_time();
    in_one_of_three_windows("stride 3:1", THREE_TO_ONE, || {
        compete(SharePolicy::Stride, [3, 1])
    });
    // Lottery is noisier over short windows: a wider bound.
    in_one_of_three_windows(
        "lottery 3:1",
        Split {
            core: 2.0..=4.5,
            items: 1.5..=6.0,
        },
        || compete(SharePolicy::Lottery, [3, 1]),
    );
}

/// Eight workers per share but two core permits (`share_cores(2)`): shares divide
/// cores, not workers. A 3:1 split still completes every item, with the same
/// results as a sequential run, and the 3-ticket share gets about 3x the core
/// time of the 1-ticket share while both compete ([`THREE_TO_ONE`]; items after
/// the window cost nothing but are still computed).
#[test]
fn eight_workers_on_two_permits_keep_the_split_and_the_results() {
    let _turn = one_at_a_time();
    // More items than the window allows even for the 3-ticket share alone, so
    // both compete for the whole window.
    const N: usize = 10_000_000;
    let value = |i: usize| (i as u32).wrapping_mul(0x9E37_79B9) ^ 0x5555;
    let want: Vec<u32> = (0..N).map(value).collect();
    in_one_of_three_windows("8 workers, 2 permits, 3:1", THREE_TO_ONE, || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(8)
            .share_cores(2)
            .build()
            .unwrap();
        let shares = [pool.share(3).unwrap(), pool.share(1).unwrap()];
        assert_eq!(shares[0].current_num_threads(), 8);
        let stop = AtomicBool::new(false);
        let done = [AtomicU64::new(0), AtomicU64::new(0)];
        let (results, window) = std::thread::scope(|s| {
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
                                    value(i)
                                })
                                .collect::<Vec<u32>>()
                        })
                    })
                })
                .collect();
            compete_for_a_window(&stop);
            let window = Window::new([&done[0], &done[1]], [shares[0].stats(), shares[1].stats()]);
            let results: Vec<Vec<u32>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
            (results, window)
        });
        for r in &results {
            assert!(r == &want, "results differ from the sequential run");
        }
        window
    });
}

/// Transfer on the real pool: a thread of share A (3 tickets) blocked in
/// `b.install(f)` lends A's tickets to B (1 ticket) until `f` returns, so B
/// computes with 4 tickets against C's 1 (about 4x C's items; without the lend it
/// would be about 1x): [`FOUR_TO_ONE_AT_LEAST`].
#[test]
fn a_blocked_lender_gives_its_tickets_to_the_share_it_waits_on() {
    let _turn = one_at_a_time();
    in_one_of_three_windows(
        "B lent A's 3 tickets, against C",
        FOUR_TO_ONE_AT_LEAST,
        || {
            let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let a = pool.share(3).unwrap();
            let b = pool.share(1).unwrap();
            let c = pool.share(1).unwrap();
            let stop = AtomicBool::new(false);
            let (done_b, done_c) = (AtomicU64::new(0), AtomicU64::new(0));
            std::thread::scope(|s| {
                // A's worker blocks in b.install: B runs with A's tickets too.
                s.spawn(|| a.install(|| b.install(|| count_items(&stop, &done_b))));
                s.spawn(|| c.install(|| count_items(&stop, &done_c)));
                compete_for_a_window(&stop);
                Window::new([&done_b, &done_c], [b.stats(), c.stats()])
            })
        },
    );
}

/// An explicit loan (`Share::lend_to`) from two lenders that do nothing but wait:
/// B (1 ticket) computes with A's 2 and C's 1 on top of its own, against D (1):
/// about 4x D's items (1x without the loans): [`FOUR_TO_ONE_AT_LEAST`].
#[test]
fn explicit_loans_from_two_lenders_add_up() {
    let _turn = one_at_a_time();
    in_one_of_three_windows("B lent 3 tickets, against D", FOUR_TO_ONE_AT_LEAST, || {
        let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (a, b, c, d) = (
            pool.share(2).unwrap(),
            pool.share(1).unwrap(),
            pool.share(1).unwrap(),
            pool.share(1).unwrap(),
        );
        let stop = AtomicBool::new(false);
        let (done_b, done_d) = (AtomicU64::new(0), AtomicU64::new(0));
        let loans = (a.lend_to(&b).unwrap(), c.lend_to(&b).unwrap());
        let window = std::thread::scope(|s| {
            s.spawn(|| b.install(|| count_items(&stop, &done_b)));
            s.spawn(|| d.install(|| count_items(&stop, &done_d)));
            compete_for_a_window(&stop);
            Window::new([&done_b, &done_d], [b.stats(), d.stats()])
        });
        drop(loans);
        window
    });
}

/// The pool's own jobs take part: once the pool has a share, a plain
/// `pool.install(par_iter)` competes as the root share's tickets (100, the
/// default, against the share's 300): the share does about 3x the items of the
/// pool's own job ([`THREE_TO_ONE`]); the pool reports its core time.
#[test]
fn the_pools_own_jobs_compete_with_their_root_tickets() {
    let _turn = one_at_a_time();
    in_one_of_three_windows("share 300 against the pool's 100", THREE_TO_ONE, || {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .root_tickets(100)
            .build()
            .unwrap();
        let share = pool.share(300).unwrap();
        let stop = AtomicBool::new(false);
        let (done_pool, done_share) = (AtomicU64::new(0), AtomicU64::new(0));
        let window = std::thread::scope(|s| {
            s.spawn(|| pool.install(|| count_items(&stop, &done_pool)));
            s.spawn(|| share.install(|| count_items(&stop, &done_share)));
            compete_for_a_window(&stop);
            Window::new([&done_share, &done_pool], [share.stats(), pool.stats()])
        });
        let st = pool.stats();
        assert!(st.core_time > Duration::ZERO && st.grants >= 1, "{st:?}");
        window
    });
}
