//! A share per request, for many requests: 48,000 cycles of making a share in a
//! tenant's currency, awaiting (or dropping) a `spawn_future` of it and dropping
//! it leave the process's threads and resident memory where they were after the
//! first 2,000. Its own test binary, so that no other test's threads or memory
//! are counted. No timing is asserted.
#![cfg(target_os = "linux")]

use prorata::ThreadPoolBuilder;
use prorata::prelude::*;

mod common;
use common::executor::{block_on, resident_kb, threads};

#[test]
fn many_share_per_request_cycles_leave_threads_and_memory_where_they_were() {
    let p = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let tenant = p.share(100).unwrap();
    let cycle = |i: u64| {
        let request = tenant.share(1 + (i % 5) as u32).unwrap();
        let fut =
            request.spawn_future(move || (0..100u64).into_par_iter().map(|x| x ^ i).sum::<u64>());
        drop(request);
        if i % 3 == 0 {
            drop(fut); // abandoned: run or not, nothing is left behind
        } else {
            let expected: u64 = (0..100u64).map(|x| x ^ i).sum();
            assert_eq!(block_on(fut), expected);
        }
    };
    (0..2_000).for_each(cycle);
    let (threads0, rss0) = (threads(), resident_kb());
    (2_000..50_000).for_each(cycle);
    let (threads1, rss1) = (threads(), resident_kb());
    // Spare threads come and go with the load; they never accumulate.
    assert!(threads1 <= threads0 + 4, "threads {threads0} -> {threads1}");
    // A leak of 25 bytes a cycle would pass 1 MB here (the allocator's own bound
    // on changes not yet followed has a unit test: entitlement_tests.rs).
    println!("threads {threads0} -> {threads1}, resident memory {rss0} kB -> {rss1} kB");
    assert!(
        rss1 <= rss0 + 1024,
        "resident memory {rss0} kB -> {rss1} kB"
    );
}
