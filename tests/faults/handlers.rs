//! Panics in start, exit and panic handlers go where Rayon sends them: without a
//! panic handler (or from the panic handler itself) the process aborts, in both
//! libraries (each case runs in a child process, once per library). A panic in a job
//! spawned into a share goes to the panic handler of the share's pool.

use std::sync::{Mutex, mpsc};
use std::time::Duration;

use crate::{child, test_path};

/// Runs the case named `name` in a child process for each library and expects both
/// to abort.
fn both_abort(name: &str) {
    for lib in ["rayon", "prorata"] {
        let out = child::run(name, lib);
        assert!(
            child::aborted(&out),
            "{lib}: expected an abort, got {:?}; stderr:\n{}",
            out.status,
            child::stderr(&out)
        );
    }
}

/// Gives a child's pool time to abort; a child that gets past this exits normally,
/// which fails the case.
fn linger() {
    std::thread::sleep(Duration::from_secs(10));
}

/// A case written once, run in a child process against Rayon and against prorata
/// (`$lib` names the library in `$body`); both must abort.
macro_rules! aborts_in_both {
    ($(#[doc = $doc:literal])* $name:ident, $lib:ident => $body:block) => {
        $(#[doc = $doc])*
        #[test]
        fn $name() {
            match child::case().as_deref() {
                None => both_abort(test_path!($name)),
                Some("rayon") => {
                    {
                        use ::rayon as $lib;
                        $body
                    }
                    linger()
                }
                Some(_) => {
                    {
                        use ::prorata as $lib;
                        $body
                    }
                    linger()
                }
            }
        }
    };
}

aborts_in_both! {
    /// A start handler panics and the pool has no panic handler.
    start_handler_panic_without_panic_handler_aborts, lib => {
        let pool = lib::ThreadPoolBuilder::new()
            .num_threads(2)
            .start_handler(|i| panic!("start {i}"))
            .build()
            .unwrap();
        std::mem::forget(pool);
    }
}

aborts_in_both! {
    /// An exit handler panics (the pool is dropped) and the pool has no panic handler.
    exit_handler_panic_without_panic_handler_aborts, lib => {
        let pool = lib::ThreadPoolBuilder::new()
            .num_threads(2)
            .exit_handler(|i| panic!("exit {i}"))
            .build()
            .unwrap();
        assert_eq!(pool.install(|| 6 * 7), 42);
        drop(pool);
    }
}

aborts_in_both! {
    /// The panic handler itself panics (on a spawned job's panic).
    panic_handler_panic_aborts, lib => {
        let pool = lib::ThreadPoolBuilder::new()
            .num_threads(2)
            .panic_handler(|_| panic!("the panic handler panics"))
            .build()
            .unwrap();
        pool.spawn(|| panic!("a spawned job panics"));
        std::mem::forget(pool);
    }
}

aborts_in_both! {
    /// The panic handler panics on a start handler's panic.
    panic_handler_panic_on_start_handler_panic_aborts, lib => {
        let pool = lib::ThreadPoolBuilder::new()
            .num_threads(1)
            .start_handler(|_| panic!("start"))
            .panic_handler(|_| panic!("the panic handler panics"))
            .build()
            .unwrap();
        std::mem::forget(pool);
    }
}

/// The text of a panic payload.
fn text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// A job spawned into a share (or a share of a share) that panics goes to the panic
/// handler of the pool, whichever way it was spawned; the pool and its shares run on.
/// (Before the fix, a share's sub-pool had no panic handler: the process aborted.)
#[test]
fn share_spawn_panics_go_to_the_pool_panic_handler() {
    let (tx, rx) = mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    let pool = prorata::ThreadPoolBuilder::new()
        .num_threads(2)
        .panic_handler(move |p| tx.lock().unwrap().send(text(p)).unwrap())
        .build()
        .unwrap();
    let share = pool.share(10).unwrap();
    let nested = share.share(5).unwrap();
    share.spawn(|| panic!("share spawn"));
    share.spawn_fifo(|| panic!("share spawn_fifo"));
    nested.spawn(|| panic!("nested spawn"));
    share.install(|| prorata::spawn(|| panic!("spawn inside a share")));
    nested.install(|| prorata::spawn_broadcast(|c| panic!("broadcast {}", c.index())));
    let mut got: Vec<String> = rx.iter().take(6).collect();
    got.sort();
    assert_eq!(
        got,
        [
            "broadcast 0",
            "broadcast 1",
            "nested spawn",
            "share spawn",
            "share spawn_fifo",
            "spawn inside a share"
        ]
    );
    assert_eq!(nested.install(|| 6 * 7), 42);
}
