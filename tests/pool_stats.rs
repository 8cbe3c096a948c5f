//! `ThreadPool::stats` and `Share::stats`: what the workers count (jobs, steals, join
//! frames published and claimed, sleeps, wake-ups), each pool or share its own.

use std::time::{Duration, Instant};

use prorata::{ShareStats, ThreadPool, ThreadPoolBuilder};

mod workers_common;
use workers_common::join_run_elsewhere;

fn pool(n: usize) -> ThreadPool {
    ThreadPoolBuilder::new().num_threads(n).build().unwrap()
}

/// Waits (up to `limit`: the machine may be busy) until `p`'s stats satisfy `ok`.
fn eventually(p: &ThreadPool, limit: Duration, ok: impl Fn(&ShareStats) -> bool) -> ShareStats {
    let deadline = Instant::now() + limit;
    loop {
        let s = p.stats();
        if ok(&s) || Instant::now() > deadline {
            return s;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn installed_spawned_and_broadcast_jobs_are_counted() {
    let p = pool(2);
    let s = p.stats();
    assert_eq!(
        (s.jobs, s.steals, s.frames_published, s.frames_claimed),
        (0, 0, 0, 0)
    );
    p.install(|| ());
    assert_eq!(p.stats().jobs, 1);
    p.broadcast(|_| ());
    assert_eq!(p.stats().jobs, 3);
    // The scope's own job, then ten spawns.
    p.scope(|s| (0..10).for_each(|_| s.spawn(|_| ())));
    assert_eq!(p.stats().jobs, 14);
    // A join's second half is a job only if another worker takes it (a job's first
    // join publishes its second half, which a thief may steal).
    let before = p.stats();
    p.install(|| prorata::join(|| (), || ()));
    let s = p.stats();
    let taken = (s.steals + s.frames_claimed) - (before.steals + before.frames_claimed);
    assert!(s.jobs == 15 + taken && taken <= 1, "{s:?}");
}

#[test]
fn a_half_run_elsewhere_is_published_and_stolen_or_claimed() {
    let p = pool(2);
    p.install(join_run_elsewhere);
    let s = p.stats();
    assert!(s.steals + s.frames_claimed >= 1, "{s:?}");
    assert!(s.frames_published + s.frames_claimed >= 1, "{s:?}");
    assert!(s.jobs >= 2, "the install and the half: {s:?}");
    assert!(s.steals <= s.jobs);
}

#[test]
fn idle_workers_sleep_and_new_work_wakes_one() {
    let p = pool(2);
    let mut last = eventually(&p, Duration::from_secs(60), |s| s.sleeps >= 2);
    assert!(last.sleeps >= 2, "{last:?}");
    // New work wakes a sleeper, unless an idle worker is awake to take it (one may be
    // back from a nap): try until a wake-up is needed.
    for _ in 0..200 {
        p.install(|| ());
        let after = eventually(&p, Duration::from_millis(100), |s| {
            s.wake_ups > last.wake_ups
        });
        if after.wake_ups > last.wake_ups {
            return;
        }
        let sleeps = after.sleeps;
        last = eventually(&p, Duration::from_secs(10), |s| s.sleeps >= sleeps + 2);
    }
    panic!("no wake-up counted: {last:?}");
}

#[test]
fn shares_count_their_own_work() {
    let p = pool(2);
    let s = p.share(100).unwrap();
    s.install(join_run_elsewhere);
    let (pool_stats, share_stats) = (p.stats(), s.stats());
    assert_eq!(pool_stats.jobs, 0, "the share's jobs are the share's");
    assert!(share_stats.jobs >= 2, "{share_stats:?}");
    assert!(share_stats.steals + share_stats.frames_claimed >= 1);
    assert!(share_stats.frames_published + share_stats.frames_claimed >= 1);
    assert!(share_stats.core_time > Duration::ZERO);

    let child = s.share(3).unwrap();
    child.install(|| ());
    assert_eq!(child.stats().jobs, 1);
    assert_eq!(
        s.stats().jobs,
        share_stats.jobs,
        "a child's jobs are its own"
    );
    assert_eq!(p.stats().jobs, 0);
}

#[test]
fn the_allocator_counts_its_calls_for_the_whole_pool() {
    let p = pool(2);
    assert_eq!(p.stats().allocator_calls, 0, "no share, no allocator");
    let s = p.share(100).unwrap();
    let other = p.share(1).unwrap();
    s.install(join_run_elsewhere);
    let first = s.stats();
    // Every grant and give-back is a call, and so is each reading.
    assert!(first.allocator_calls >= first.grants, "{first:?}");
    assert!(first.allocator_waits <= first.allocator_calls);
    other.install(join_run_elsewhere);
    // The same counters whichever share or pool reads them, and they only grow.
    let (a, b) = (other.stats(), p.stats());
    assert!(a.allocator_calls > first.allocator_calls, "{a:?}");
    assert!(b.allocator_calls > a.allocator_calls, "{b:?}");
    assert!(b.allocator_wait_time >= first.allocator_wait_time);
}
