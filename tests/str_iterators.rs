//! Every string iterator against its sequential std counterpart, over empty, tiny and
//! large strings with multi-byte chars, on pools of 1, 2 and 8 workers.

mod common;

use common::cases::on_pools;
use common::plumbing::to_vec;
use prorata::prelude::*;

/// Strings of `len` chars mixing ASCII, 2-, 3- and 4-byte chars, separators,
/// whitespace of both kinds and line endings.
fn text(len: usize, seed: u32) -> String {
    const PIECES: [&str; 16] = [
        "a", "é", "ñ", "中", "𝄞", ",", " ", "\u{3000}", "\n", "\r\n", "\t", "\r", "bc", "😀", ",,",
        "  ",
    ];
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            PIECES[(x % 16) as usize]
        })
        .collect()
}

fn texts() -> Vec<String> {
    let mut all: Vec<String> = ["", "a", ",", "\n", "é", "a,", ",a", " ", "\r\n", "a\r"]
        .map(String::from)
        .to_vec();
    for (i, len) in [2, 3, 10, 100, 5000, 60_000].into_iter().enumerate() {
        all.push(text(len, i as u32));
    }
    all
}

#[test]
fn per_char_iterators_match_std() {
    on_pools(|_| {
        for s in texts() {
            assert_eq!(to_vec(s.par_chars()), s.chars().collect::<Vec<_>>());
            assert_eq!(
                to_vec(s.par_char_indices()),
                s.char_indices().collect::<Vec<_>>()
            );
            assert_eq!(to_vec(s.par_bytes()), s.bytes().collect::<Vec<_>>());
            assert_eq!(
                to_vec(s.par_encode_utf16()),
                s.encode_utf16().collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn splits_match_std() {
    on_pools(|_| {
        for s in texts() {
            let s = s.as_str();
            assert_eq!(to_vec(s.par_split(',')), s.split(',').collect::<Vec<_>>());
            assert_eq!(to_vec(s.par_split('中')), s.split('中').collect::<Vec<_>>());
            let set = [',', 'é', '𝄞'];
            assert_eq!(to_vec(s.par_split(set)), s.split(set).collect::<Vec<_>>());
            assert_eq!(to_vec(s.par_split(&set)), s.split(&set).collect::<Vec<_>>());
            assert_eq!(
                to_vec(s.par_split(&set[..])),
                s.split(&set[..]).collect::<Vec<_>>()
            );
            let ws = char::is_whitespace;
            assert_eq!(to_vec(s.par_split(ws)), s.split(ws).collect::<Vec<_>>());
            for sep in [',', '\n', 'a'] {
                assert_eq!(
                    to_vec(s.par_split_inclusive(sep)),
                    s.split_inclusive(sep).collect::<Vec<_>>()
                );
                assert_eq!(
                    to_vec(s.par_split_terminator(sep)),
                    s.split_terminator(sep).collect::<Vec<_>>()
                );
            }
        }
    });
}

#[test]
fn lines_and_whitespace_match_std() {
    on_pools(|_| {
        for s in texts() {
            assert_eq!(to_vec(s.par_lines()), s.lines().collect::<Vec<_>>());
            assert_eq!(
                to_vec(s.par_split_whitespace()),
                s.split_whitespace().collect::<Vec<_>>()
            );
            assert_eq!(
                to_vec(s.par_split_ascii_whitespace()),
                s.split_ascii_whitespace().collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn matches_match_std() {
    on_pools(|_| {
        for s in texts() {
            let s = s.as_str();
            assert_eq!(
                to_vec(s.par_matches(',')),
                s.matches(',').collect::<Vec<_>>()
            );
            let wide = |c: char| c.len_utf8() > 1;
            assert_eq!(
                to_vec(s.par_matches(wide)),
                s.matches(wide).collect::<Vec<_>>()
            );
            assert_eq!(
                to_vec(s.par_match_indices(wide)),
                s.match_indices(wide).collect::<Vec<_>>()
            );
            let set = ['\n', '😀'];
            assert_eq!(
                to_vec(s.par_match_indices(set)),
                s.match_indices(set).collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn separators_only() {
    let s = ",".repeat(10_000);
    assert_eq!(to_vec(s.par_split(',')).len(), 10_001);
    assert_eq!(to_vec(s.par_split_terminator(',')).len(), 10_000);
    assert_eq!(to_vec(s.par_split_inclusive(',')).len(), 10_000);
    let blank = " \n".repeat(5000);
    assert!(to_vec(blank.par_split_whitespace()).is_empty());
    assert_eq!(to_vec(blank.par_lines()), blank.lines().collect::<Vec<_>>());
}

/// Inside a share, leaf loops run in short timed runs (from 64 items) with a safe point
/// between runs: long strings then cross many runs, and the items must be the same.
#[test]
fn string_iterators_in_a_share_match_std() {
    let pool = common::cases::pool(2);
    let share = pool.share(1).expect("tickets > 0");
    let s = text(200_000, 7);
    share.install(|| {
        assert_eq!(to_vec(s.par_chars()), s.chars().collect::<Vec<_>>());
        assert_eq!(
            to_vec(s.par_char_indices()),
            s.char_indices().collect::<Vec<_>>()
        );
        assert_eq!(to_vec(s.par_bytes()), s.bytes().collect::<Vec<_>>());
        assert_eq!(
            to_vec(s.par_split_whitespace()),
            s.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(
            to_vec(s.par_split_ascii_whitespace()),
            s.split_ascii_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(
            s.par_split(&[',', '\n'][..]).count(),
            s.split(&[',', '\n'][..]).count()
        );
    });
}

/// A search over a per-char iterator stops early and finds what std finds.
#[test]
fn per_char_searches_match_std() {
    on_pools(|_| {
        let s = text(100_000, 3);
        assert_eq!(
            s.par_bytes().find_first(|&b| b > 0xf0),
            s.bytes().find(|&b| b > 0xf0)
        );
        assert!(s.par_chars().any(|c| c == '中'));
        assert_eq!(
            s.par_char_indices().find_first(|&(_, c)| c == '𝄞'),
            s.char_indices().find(|&(_, c)| c == '𝄞')
        );
    });
}
