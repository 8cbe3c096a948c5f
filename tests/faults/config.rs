//! Absurd configuration gives a clear error, never an abort or a hang: more threads
//! than the operating system allows, a stack no system can map, zero or overflowing
//! tickets, a zero quantum, zero cores for the shares, a share whose workers cannot
//! start, a share of a pool with big stacks.

use std::time::Duration;

use prorata::{ShareError, ThreadPoolBuildErrorKind, ThreadPoolBuilder};

use crate::{child, test_path};

/// `num_threads` far beyond what the OS allows (here: a child whose address space
/// holds a dozen stacks): `build` fails with the OS's error, and the threads it
/// started exit; the same in Rayon.
#[test]
fn num_threads_beyond_the_os_limit_is_an_error() {
    let Some(lib) = child::case() else {
        for lib in ["rayon", "prorata"] {
            let out = child::run(test_path!(num_threads_beyond_the_os_limit_is_an_error), lib);
            assert!(
                out.status.success(),
                "{lib}: {:?}\n{}",
                out.status,
                child::stderr(&out)
            );
        }
        return;
    };
    child::limit_address_space(1 << 30);
    // Big stacks: the space left after the last stack that fits is then almost never
    // below what std needs next for the new thread's signal stack (it aborts the
    // process when that fails, in either library: seen once with 2 MiB stacks).
    const STACK: usize = 64 << 20;
    let before = child::all_threads();
    let err = if lib == "rayon" {
        let r = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::MAX)
            .stack_size(STACK)
            .build();
        r.map(drop).unwrap_err().to_string()
    } else {
        let r = ThreadPoolBuilder::new()
            .num_threads(usize::MAX)
            .stack_size(STACK)
            .build();
        let err = r.map(drop).unwrap_err();
        assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ThreadSpawn);
        err.to_string()
    };
    assert!(
        err.contains("Resource temporarily unavailable"),
        "{lib}: {err}"
    );
    assert!(
        child::eventually(|| child::all_threads() <= before),
        "{lib}: {} threads left of {before}",
        child::all_threads()
    );
}

/// A stack size no system can map is the OS's error, not a panic or an abort.
#[test]
fn absurd_stack_size_is_an_error() {
    for size in [usize::MAX, 1 << 46] {
        let err = ThreadPoolBuilder::new()
            .num_threads(2)
            .stack_size(size)
            .build()
            .unwrap_err();
        assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ThreadSpawn, "{size}");
        assert!(
            rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .stack_size(size)
                .build()
                .is_err()
        );
    }
}

/// Zero tickets, for a share of a pool, of a share, of the global pool, or as a new
/// count.
#[test]
fn zero_tickets_are_an_error() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    assert_eq!(pool.share(0).unwrap_err(), ShareError::ZeroTickets);
    let s = pool.share(1).unwrap();
    assert_eq!(s.share(0).unwrap_err(), ShareError::ZeroTickets);
    assert_eq!(s.set_tickets(0), Err(ShareError::ZeroTickets));
    assert_eq!(prorata::share(0).unwrap_err(), ShareError::ZeroTickets);
    assert_eq!(s.install(|| 6 * 7), 42);
}

/// Tickets whose sum over one pool's (or one currency's) shares exceeds `u32::MAX`.
#[test]
fn overflowing_tickets_are_an_error() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let big = pool.share(u32::MAX).unwrap();
    assert_eq!(pool.share(1).unwrap_err(), ShareError::TicketOverflow);
    big.set_tickets(u32::MAX - 10).unwrap();
    let small = pool.share(10).unwrap();
    assert_eq!(small.set_tickets(11), Err(ShareError::TicketOverflow));
    assert_eq!(big.set_tickets(u32::MAX), Err(ShareError::TicketOverflow));
    let child_share = big.share(u32::MAX).unwrap();
    assert_eq!(big.share(1).unwrap_err(), ShareError::TicketOverflow);
    assert_eq!(child_share.install(|| 6 * 7), 42);
    assert_eq!(small.install(|| 6 * 7), 42);
}

/// A zero quantum is an error (before the fix it was taken as 1 ns, so that every
/// waiting worker ended a quantum at every wake-up).
#[test]
fn zero_quantum_is_an_error() {
    let err = ThreadPoolBuilder::new()
        .share_quantum(Duration::ZERO)
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ZeroShareQuantum);
    assert!(err.to_string().contains("quantum"), "{err}");
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_quantum(Duration::MAX)
        .build()
        .unwrap();
    assert_eq!(pool.share(1).unwrap().install(|| 6 * 7), 42);
}

/// No cores for the shares is an error; more cores than workers are clamped.
#[test]
fn zero_share_cores_is_an_error() {
    let err = ThreadPoolBuilder::new().share_cores(0).build().unwrap_err();
    assert_eq!(err.kind(), ThreadPoolBuildErrorKind::ZeroShareCores);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .share_cores(usize::MAX)
        .build()
        .unwrap();
    assert_eq!(pool.share(1).unwrap().install(|| 6 * 7), 42);
}

/// Deep recursion: about 16 MiB of stack.
#[inline(never)]
fn deep(depth: usize) -> u64 {
    let frame = std::hint::black_box([depth as u8; 64 << 10]);
    if depth == 0 {
        return u64::from(frame[0]);
    }
    u64::from(frame[depth % frame.len()]) + deep(depth - 1)
}

/// Work that fits in the pool's stacks fits in its shares' (in a child: before the
/// fix, a share's workers had the default 2 MiB stack and this overflowed it).
#[test]
fn shares_take_the_pool_stack_size() {
    if child::case().is_none() {
        let out = child::run(test_path!(shares_take_the_pool_stack_size), "prorata");
        assert!(
            out.status.success(),
            "{:?}\n{}",
            out.status,
            child::stderr(&out)
        );
        return;
    }
    let expected = (0..=256u64).map(|d| d % 256).sum::<u64>();
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(64 << 20)
        .build()
        .unwrap();
    assert_eq!(pool.install(|| deep(256)), expected);
    let share = pool.share(1).unwrap();
    assert_eq!(share.install(|| deep(256)), expected);
    let nested = share.share(1).unwrap();
    assert_eq!(
        nested.join(|| deep(256), || deep(256)),
        (expected, expected)
    );
}

/// A share whose workers cannot start (a child whose address space holds the pool's
/// big stacks but not its share's) is a clear error, not "shutting down"; the pool
/// and its other shares run on.
#[test]
fn share_whose_workers_cannot_start_is_an_error() {
    if child::case().is_none() {
        let out = child::run(
            test_path!(share_whose_workers_cannot_start_is_an_error),
            "prorata",
        );
        assert!(
            out.status.success(),
            "{:?}\n{}",
            out.status,
            child::stderr(&out)
        );
        return;
    }
    const STACK: usize = 256 << 20;
    child::limit_address_space(3 * STACK as u64);
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(STACK)
        .build()
        .unwrap();
    let before = child::all_threads();
    let err = pool.share(1).unwrap_err();
    assert_eq!(err, ShareError::ThreadSpawn);
    assert!(err.to_string().contains("thread"), "{err}");
    assert!(child::eventually(|| child::all_threads() <= before));
    assert_eq!(pool.install(|| 6 * 7), 42);
}
