//! Every indexed adaptor followed by the consumers of the battery
//! (tests/common/battery.rs), against std's sequential equivalent, over lengths from 0
//! to 100,000 on pools of 1, 2 and 8 workers. Each adaptor runs over an indexed source
//! and, for those that keep an indexed base indexed, over one that hides its length. The matrix is split in two test binaries (tests/iter_matrix_unindexed.rs), so each compiles
//! in well under a minute.

mod common;

use common::battery::{interspersed, matrix};
use prorata::prelude::*;

// Adaptors that keep an indexed base indexed.
matrix! { keeps_index Exact:
    map: |b, _n| b.map(|x| x * 3 - 1) => |s| s.map(|x| x * 3 - 1);
    map_with: |b, _n| b.map_with(5, |k, x| x + *k) => |s| s.map(|x| x + 5);
    map_init: |b, _n| b.map_init(|| 5, |k, x| x - *k) => |s| s.map(|x| x - 5);
    inspect: |b, _n| b.inspect(|_| ()) => |s| s;
    update: |b, _n| b.update(|x| *x ^= 1) => |s| s.map(|x| x ^ 1);
    chain_after: |b, _n| b.chain(vec![1, 2, 3]) => |s| s.chain([1, 2, 3]);
    chain_before: |b, _n| vec![4, 5].into_par_iter().chain(b) => |s| [4, 5].into_iter().chain(s);
    panic_fuse: |b, _n| b.panic_fuse() => |s| s;
    intersperse: |b, _n| b.intersperse(-7) => |s| interspersed(s, -7);
    intersperse_twice: |b, _n| b.intersperse(-7).intersperse(-8)
        => |s| interspersed(interspersed(s, -7), -8);
    intersperse_then_chain: |b, _n| b.intersperse(-7).chain(vec![1, 2])
        => |s| interspersed(s, -7).chain([1, 2]);
    chain_then_intersperse: |b, _n| vec![4, 5].into_par_iter().chain(b).intersperse(-7)
        => |s| interspersed([4, 5].into_iter().chain(s), -7);
    panic_fuse_then_intersperse: |b, _n| b.panic_fuse().intersperse(-7)
        => |s| interspersed(s, -7);
}

// Adaptors of indexed iterators only.
matrix! { indexed_only Exact:
    deterministic: |b, _n| b.deterministic() => |s| s;
    deterministic_leaf_1: |b, _n| b.deterministic().with_leaf_len(1) => |s| s;
    enumerate: |b, _n| b.enumerate().map(|(i, x)| i as i64 * 1000 + x)
        => |s| s.enumerate().map(|(i, x)| i as i64 * 1000 + x);
    zip: |b, n| b.zip(0..n + 5).map(|(x, i)| x - i as i64)
        => |s| s.zip(0..).map(|(x, i)| x - i as i64);
    interleave: |b, n| b.interleave(vec![0; n / 2]) => |s| {
        let (mut out, n) = (Vec::new(), s.len());
        for (i, x) in s.enumerate() {
            out.push(x);
            if i < n / 2 {
                out.push(0);
            }
        }
        out.into_iter()
    };
    chunks: |b, _n| b.chunks(3).map(|c| c.iter().sum())
        => |s| s.collect::<Vec<_>>().chunks(3).map(|c| c.iter().sum()).collect::<Vec<_>>().into_iter();
    fold_chunks: |b, _n| b.fold_chunks(4, || 0, |a, x| a * 3 + x)
        => |s| s.collect::<Vec<_>>().chunks(4).map(|c| c.iter().fold(0, |a, x| a * 3 + x)).collect::<Vec<_>>().into_iter();
    step_by: |b, _n| b.step_by(3) => |s| s.step_by(3);
    skip: |b, n| b.skip(n / 3) => |s| s.skip(n / 3);
    take: |b, n| b.take(n / 2) => |s| s.take(n / 2);
    rev: |b, _n| b.rev() => |s| s.rev();
    with_max_len: |b, _n| b.with_max_len(7) => |s| s;
    intersperse_then_enumerate: |b, _n| b.intersperse(-7).enumerate().map(|(i, x)| i as i64 - x)
        => |s| interspersed(s, -7).enumerate().map(|(i, x)| i as i64 - x);
    intersperse_then_rev: |b, _n| b.intersperse(-7).rev() => |s| interspersed(s, -7).rev();
    intersperse_then_skip: |b, n| b.intersperse(-7).skip(n / 2) => |s| interspersed(s, -7).skip(n / 2);
    intersperse_then_zip: |b, _n| b.clone().intersperse(-7).zip(b.intersperse(-1)).map(|(x, y)| x * y)
        => |s| interspersed(s.clone(), -7).zip(interspersed(s, -1)).map(|(x, y)| x * y);
    rev_then_intersperse: |b, _n| b.rev().intersperse(-7) => |s| interspersed(s.rev(), -7);
    chunks_then_intersperse: |b, _n| b.chunks(3).map(|c| c[0]).intersperse(-7)
        => |s| interspersed(s.step_by(3), -7);
    panic_fuse_then_rev: |b, _n| b.panic_fuse().rev() => |s| s.rev();
}
