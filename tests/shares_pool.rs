//! Shares on a real pool: the pool API inside a share, proportions between
//! competing shares (generous bounds, measured from outside by items done), and
//! work conservation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prorata::prelude::*;
use prorata::{ShareError, SharePolicy, ThreadPoolBuilder};

/// About a microsecond of work that the optimiser cannot remove.
fn spin(i: u64) -> u64 {
    let mut x = i;
    for _ in 0..200 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
    x
}

#[test]
fn the_pool_api_works_inside_a_share() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(10).unwrap();
    let v: Vec<u64> = (0..10_000u64).collect();
    let sum = AtomicU64::new(0);
    s.install(|| {
        v.par_iter().for_each(|x| {
            sum.fetch_add(x * 2, Ordering::Relaxed);
        })
    });
    assert_eq!(sum.into_inner(), v.iter().map(|x| x * 2).sum::<u64>());
    assert_eq!(s.join(|| 1, || 2), (1, 2));
    let mut hits = [0u8; 4];
    s.scope(|sc| {
        for h in hits.iter_mut() {
            sc.spawn(move |_| *h = 1);
        }
    });
    assert_eq!(hits, [1; 4]);
    assert_eq!(s.broadcast(|c| c.index()).len(), 2);
    assert_eq!(s.install(prorata::current_num_threads), 2);
    let child = s.share(3).unwrap();
    assert_eq!(child.install(|| 5), 5);
    assert!(s.stats().grants >= 1);
}

#[test]
fn share_errors() {
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.share(0).unwrap_err(), ShareError::ZeroTickets);
    let a = pool.share(u32::MAX - 1).unwrap();
    assert_eq!(pool.share(2).unwrap_err(), ShareError::TicketOverflow);
    assert_eq!(a.set_tickets(0), Err(ShareError::ZeroTickets));
    drop(a);
    // The dropped share's tickets are gone.
    assert!(pool.share(2).is_ok());
}

#[test]
fn a_panic_in_a_share_propagates_and_the_share_stays_usable() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let s = pool.share(1).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.install(|| (0..100).into_par_iter().for_each(|i| assert!(i != 50)))
    }));
    assert!(r.is_err());
    assert_eq!(s.install(|| 3), 3);
}

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

#[test]
fn three_to_one_gets_about_three_times_the_items() {
    for policy in [SharePolicy::Stride, SharePolicy::Lottery] {
        let done = compete(policy, &[3, 1], Duration::from_millis(600));
        let ratio = done[0] as f64 / done[1].max(1) as f64;
        assert!((2.0..=4.0).contains(&ratio), "{policy:?}: {done:?}");
    }
}
