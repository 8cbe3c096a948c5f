//! Every unindexed adaptor followed by the consumers of the battery
//! (tests/common/battery.rs), against std's sequential equivalent, over lengths from 0
//! to 100,000 on pools of 1, 2 and 8 workers. Each adaptor runs over an indexed source
//! and over one that hides its length. The matrix is split in two test binaries (tests/iter_matrix_indexed.rs), so each compiles
//! in well under a minute.

mod common;

use common::battery::{interspersed, is_rare, matrix};
use prorata::prelude::*;

// Adaptors whose output length cannot be known in advance.
matrix! { unindexed Exact:
    filter: |b, _n| b.filter(|x| x % 3 != 0) => |s| s.filter(|x| x % 3 != 0);
    filter_map: |b, _n| b.filter_map(|x| (x % 3 != 0).then_some(2 * x))
        => |s| s.filter_map(|x| (x % 3 != 0).then_some(2 * x));
    flat_map_vec: |b, _n| b.flat_map(|x| vec![x, x + 1]) => |s| s.flat_map(|x| [x, x + 1]);
    flat_map_range: |b, _n| b.flat_map(|x| (0..x.rem_euclid(3)).into_par_iter().map(move |k| x + k))
        => |s| s.flat_map(|x| (0..x.rem_euclid(3)).map(move |k| x + k));
    flat_map_iter: |b, _n| b.flat_map_iter(|x| 0..x.rem_euclid(3))
        => |s| s.flat_map(|x| 0..x.rem_euclid(3));
    flatten: |b, _n| b.map(|x| vec![x; x.rem_euclid(3) as usize]).flatten()
        => |s| s.flat_map(|x| vec![x; x.rem_euclid(3) as usize]);
    flatten_iter: |b, _n| b.map(|x| vec![x; x.rem_euclid(3) as usize]).flatten_iter()
        => |s| s.flat_map(|x| vec![x; x.rem_euclid(3) as usize]);
    while_some: |b, _n| b.map(Some).while_some() => |s| s;
    take_any_while_all: |b, _n| b.take_any_while(|&x| x < 1000) => |s| s;
    skip_any_while_none: |b, _n| b.skip_any_while(|&x| x > 1000) => |s| s;
    chain_unindexed: |b, _n| b.chain(vec![1, 2, 3, 4].into_par_iter().filter(|x| x % 2 == 0))
        => |s| s.chain([2, 4]);
    filter_then_intersperse: |b, _n| b.filter(|x| x % 3 != 0).intersperse(-7)
        => |s| interspersed(s.filter(|x| x % 3 != 0), -7);
    intersperse_then_filter: |b, _n| b.intersperse(-7).filter(|x| x % 3 != 0)
        => |s| interspersed(s, -7).filter(|x| x % 3 != 0);
    flat_map_of_intersperse: |b, _n| b.flat_map(|x| vec![x, x].into_par_iter().intersperse(0))
        => |s| s.flat_map(|x| [x, 0, x]);
}

matrix! { unindexed Multiset:
    take_any_all: |b, n| b.take_any(n) => |s| s;
    skip_any_none: |b, _n| b.skip_any(0) => |s| s;
}

matrix! { unindexed Count:
    take_any_half: |b, n| b.take_any(n / 2) => |s| s.take(n / 2);
    skip_any_third: |b, n| b.skip_any(n / 3) => |s| s.skip(n / 3);
}

matrix! { unindexed Sum:
    fold: |b, _n| b.fold(|| 0, |a, x| a + x) => |s| s;
    fold_with: |b, _n| b.fold_with(0, |a, x| a + x) => |s| s;
    try_fold: |b, _n| b.try_fold(|| 0, |a, x| Some(a + x)).map(Option::unwrap) => |s| s;
    try_fold_with: |b, _n| b.try_fold_with(0, |a, x| Ok::<_, ()>(a + x)).map(Result::unwrap)
        => |s| s;
}

// Adaptors of indexed iterators that are not indexed themselves.
matrix! { of_indexed Exact:
    by_exponential_blocks: |b, _n| b.by_exponential_blocks() => |s| s;
    by_uniform_blocks: |b, _n| b.by_uniform_blocks(10) => |s| s;
    positions: |b, _n| b.positions(|x| is_rare(&x)).map(|i| i as i64)
        => |s| s.enumerate().filter(|(_, x)| is_rare(x)).map(|(i, _)| i as i64);
}
