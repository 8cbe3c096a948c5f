//! A split at one ASCII char, searched a word at a time.
//!
//! Std's `split(c)` finds each match with a `memchr` behind a general char searcher
//! that the compiler keeps out of line in a parallel leaf: about 70 instructions a
//! match on top of the scan, which dominates where matches are close (words split
//! at spaces). A byte-by-byte table costs a few instructions a byte, which loses
//! where matches are far apart (lines). This search reads two eight-byte words a
//! step and finds the first equal byte with a word-wide test, so it costs about 1.5
//! instructions a byte between matches and a few per match. An ASCII byte is a whole
//! char in UTF-8 (no other char's bytes take its value), so the pieces are std's.

/// Eight copies of the low bit of each byte, and of the high bit.
const LOW: u64 = u64::from_ne_bytes([0x01; 8]);
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// The index of the first byte of `hay` equal to `byte`.
#[inline]
pub(super) fn find_byte(hay: &[u8], byte: u8) -> Option<usize> {
    let pattern = LOW * u64::from(byte);
    // The high bit of each byte of `word` equal to `byte`'s. `(x - LOW) & !x & HIGH`
    // sets the high bit of the lowest zero byte of `x` (and maybe of higher bytes,
    // through the borrow, never of a lower one), so its lowest set bit, in
    // little-endian order, is the first match.
    let matches = |word: &[u8]| {
        let word: [u8; 8] = word.try_into().expect("eight bytes");
        let x = u64::from_le_bytes(word) ^ pattern;
        x.wrapping_sub(LOW) & !x & HIGH
    };
    let first = |at: usize, zero: u64| at + (zero.trailing_zeros() / 8) as usize;
    // Two words a step: one test of both between matches.
    let mut pairs = hay.chunks_exact(16);
    let mut at = 0;
    for pair in &mut pairs {
        let (low, high) = (matches(&pair[..8]), matches(&pair[8..]));
        if low | high != 0 {
            return Some(if low != 0 {
                first(at, low)
            } else {
                first(at + 8, high)
            });
        }
        at += 16;
    }
    let tail = pairs.remainder();
    tail.iter().position(|&b| b == byte).map(|i| at + i)
}

/// `str::split` at an ASCII char, or `str::split_inclusive` (each piece keeps the
/// match that ends it): the same pieces.
pub(super) struct ByteSplit<'ch> {
    /// What is left to split; `None` once the last piece is out.
    rest: Option<&'ch str>,
    byte: u8,
    inclusive: bool,
}

impl<'ch> ByteSplit<'ch> {
    /// `s.split(c)`; `c` must be ASCII.
    #[inline]
    pub(super) fn new(s: &'ch str, c: char) -> Self {
        debug_assert!(c.is_ascii());
        ByteSplit {
            rest: Some(s),
            byte: c as u8,
            inclusive: false,
        }
    }

    /// `s.split_inclusive(c)`; `c` must be ASCII. An empty string has no piece,
    /// and a match at the end leaves no empty piece after it.
    #[inline]
    pub(super) fn inclusive(s: &'ch str, c: char) -> Self {
        debug_assert!(c.is_ascii());
        ByteSplit {
            rest: (!s.is_empty()).then_some(s),
            byte: c as u8,
            inclusive: true,
        }
    }
}

impl<'ch> Iterator for ByteSplit<'ch> {
    type Item = &'ch str;

    #[inline]
    fn next(&mut self) -> Option<&'ch str> {
        let rest = self.rest?;
        match find_byte(rest.as_bytes(), self.byte) {
            // Both cuts fall on char boundaries: byte `i` is an ASCII char.
            Some(i) if self.inclusive => {
                let (piece, after) = rest.split_at(i + 1);
                self.rest = (!after.is_empty()).then_some(after);
                Some(piece)
            }
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// `str::lines`: the pieces of a split at `'\n'` that keeps it, less the `"\n"` or
/// `"\r\n"` that ends each.
#[inline]
pub(super) fn lines(s: &str) -> impl Iterator<Item = &str> {
    ByteSplit::inclusive(s, '\n').map(|line| {
        let Some(line) = line.strip_suffix('\n') else {
            return line;
        };
        line.strip_suffix('\r').unwrap_or(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_equal_byte_at_every_offset() {
        for len in 0..40usize {
            for at in 0..=len {
                // Every other byte value around it, the same byte again later
                // (a borrow must not report a later match first), and 0x80 and
                // 0xFF, which the word test must tell apart from a match.
                let mut hay: Vec<u8> = (0..len).map(|i| [0x80, 0xFF, b'a', 0x00][i % 4]).collect();
                if at < len {
                    hay[at] = b' ';
                    for later in hay.iter_mut().skip(at + 1).step_by(3) {
                        *later = b' ';
                    }
                }
                let want = hay.iter().position(|&b| b == b' ');
                assert_eq!(find_byte(&hay, b' '), want, "{len} {at}");
            }
        }
        for byte in 0..=127u8 {
            let hay: Vec<u8> = (0..=255u8).rev().collect();
            assert_eq!(find_byte(&hay, byte), Some(255 - usize::from(byte)));
        }
    }

    #[test]
    fn splits_like_std() {
        let alphabet = [
            "a", ",", "é", "\n", " ", "𝄞", "\u{3000}", ",,", "bc", "\u{2c00}", "\r\n", "\r",
        ];
        for n in 0..3000usize {
            let s: String = (0..n % 41)
                .map(|i| alphabet[(i * i + n * 7 + i / 5) % alphabet.len()])
                .collect();
            for c in [',', ' ', '\n', 'a', '\0'] {
                let pieces: Vec<_> = ByteSplit::new(&s, c).collect();
                assert_eq!(pieces, s.split(c).collect::<Vec<_>>(), "{s:?} {c:?}");
                let pieces: Vec<_> = ByteSplit::inclusive(&s, c).collect();
                let want: Vec<_> = s.split_inclusive(c).collect();
                assert_eq!(pieces, want, "inclusive {s:?} {c:?}");
            }
            assert_eq!(
                lines(&s).collect::<Vec<_>>(),
                s.lines().collect::<Vec<_>>(),
                "{s:?}"
            );
        }
    }
}
