//! Property tests: random inputs through chains of adaptors and consumers give what
//! the same chain of `std::iter` gives, on a pool of 3 workers.

mod common;

use common::plumbing::to_vec;
use proptest::prelude::*;
use prorata::prelude::*;

fn pool() -> prorata::ThreadPool {
    prorata::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn filter_flat_map_intersperse_chain(v in prop::collection::vec(0u16..50, 0..3000), cut in 0usize..3000) {
        let cut = cut.min(v.len());
        let keep = |x: &&u16| **x % 3 != 0;
        let par = pool().install(|| {
            let front = v[..cut].par_iter().filter(keep).flat_map_iter(|&x| 0..x % 4);
            let back = v[cut..].par_iter().map(|&x| x % 4);
            to_vec(front.chain(back).intersperse(99))
        });
        let front = v[..cut].iter().filter(keep).flat_map(|&x| 0..x % 4);
        let back = v[cut..].iter().map(|&x| x % 4);
        let mut seq = Vec::new();
        for (i, x) in front.chain(back).enumerate() {
            if i > 0 {
                seq.push(99);
            }
            seq.push(x);
        }
        prop_assert_eq!(par, seq);
    }

    #[test]
    fn searches_and_extremes(v in prop::collection::vec(0u16..1000, 0..3000), target in 0u16..1000) {
        pool().install(|| {
            let hit = |x: &&u16| **x >= target;
            prop_assert_eq!(v.par_iter().find_first(hit), v.iter().find(hit));
            prop_assert_eq!(v.par_iter().find_last(hit), v.iter().rev().find(hit));
            prop_assert_eq!(v.par_iter().any(|&x| x == target), v.contains(&target));
            let keyed = |x: &(usize, &u16)| *x.1 / 10;
            let par_min = v.par_iter().enumerate().min_by_key(keyed);
            prop_assert_eq!(par_min, v.iter().enumerate().min_by_key(keyed));
            let par_max = v.par_iter().enumerate().max_by_key(keyed);
            prop_assert_eq!(par_max, v.iter().enumerate().max_by_key(keyed));
            let sum: u64 = v.par_iter().map(|&x| u64::from(x)).sum();
            prop_assert_eq!(sum, v.iter().map(|&x| u64::from(x)).sum::<u64>());
            let checked = v.par_iter().map(|&x| Some(x)).try_reduce(|| 0u16, |a, b| a.checked_add(b));
            prop_assert_eq!(checked, v.iter().try_fold(0u16, |a, &b| a.checked_add(b)));
            Ok(())
        })?;
    }
}
