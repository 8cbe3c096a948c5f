//! The global pool: sized by `PRORATA_NUM_THREADS`, built once. One test only: it sets an
//! environment variable and builds the process-wide pool.

use prorata::prelude::*;
use prorata::{ThreadPoolBuildErrorKind, ThreadPoolBuilder};

#[test]
fn global_pool_env_size_and_second_build_fails() {
    // SAFETY: this test binary has a single test, so no other thread reads the environment.
    unsafe { std::env::set_var("PRORATA_NUM_THREADS", "3") };
    ThreadPoolBuilder::new()
        .thread_name(|i| format!("worker-{i}"))
        .build_global()
        .unwrap();
    assert_eq!(prorata::current_num_threads(), 3);
    // Every item of a parallel iterator that splits runs on a named worker, never on
    // the calling thread (whose thread-locals and name differ).
    let names: Vec<String> = (0..10_000)
        .into_par_iter()
        .flat_map(|_| std::thread::current().name().map(str::to_owned))
        .collect();
    assert_eq!(names.len(), 10_000);
    assert!(names.iter().all(|n| n.starts_with("worker-")), "{names:?}");
    assert_eq!(prorata::broadcast(|c| c.index()), [0, 1, 2]);
    let err = ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global()
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ThreadPoolBuildErrorKind::GlobalPoolAlreadyInitialized
    );
    assert!(err.to_string().contains("already"));
    // Invalid values fall back to the CPU count.
    unsafe { std::env::set_var("PRORATA_NUM_THREADS", "zero") };
    let p = ThreadPoolBuilder::new().build().unwrap();
    assert!(p.current_num_threads() >= 1);
    assert_eq!(prorata::join(|| 1, || 2), (1, 2));
}
