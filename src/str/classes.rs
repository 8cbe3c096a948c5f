//! A byte-by-byte search for a pattern whose chars are all known ahead: a char set, or
//! Unicode whitespace. A table says of each byte whether it is a whole match (an ASCII
//! char of the pattern), may start one (the first byte of a longer char of the
//! pattern: only then is the char decoded and tested) or starts none. Std's searches
//! for such patterns decode and test every char; this one reads one table entry per
//! byte, and the splits that use it give exactly std's pieces.
//!
//! Continuation bytes never share an entry with a first byte, so a search may step one
//! byte at a time and still only decode at char boundaries.

/// The byte starts no match.
const NONE: u8 = 0;
/// The byte is a whole match: an ASCII char of the pattern.
const WHOLE: u8 = 1;
/// The byte starts a longer char that may match: decode it and ask the pattern.
const FIRST: u8 = 2;

/// What each byte value says about a match starting at it.
pub(super) struct ByteClasses {
    class: [u8; 256],
}

/// Unicode whitespace, as `char::is_whitespace` defines it: the ASCII ones
/// (`'\t'`, `'\n'`, `'\u{b}'`, `'\u{c}'`, `'\r'`, `' '`), and longer chars that all
/// start with one of the bytes 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2 (U+2000
/// to U+205F) or 0xE3 (U+3000).
pub(super) static WHITESPACE: ByteClasses = {
    let mut class = [NONE; 256];
    let mut b = b'\t';
    while b <= b'\r' {
        class[b as usize] = WHOLE;
        b += 1;
    }
    class[b' ' as usize] = WHOLE;
    class[0xC2] = FIRST;
    class[0xE1] = FIRST;
    class[0xE2] = FIRST;
    class[0xE3] = FIRST;
    ByteClasses { class }
};

impl ByteClasses {
    /// The classes of the chars of a set.
    pub(super) fn of_chars(chars: &[char]) -> Self {
        let mut class = [NONE; 256];
        for &c in chars {
            let mut utf8 = [0; 4];
            let first = c.encode_utf8(&mut utf8).as_bytes()[0];
            class[usize::from(first)] = if c.is_ascii() { WHOLE } else { FIRST };
        }
        ByteClasses { class }
    }

    /// The first match in `s`, as its start and end; `is_match` decides the chars
    /// that the table leaves open (it must agree with the table on the rest).
    #[inline]
    pub(super) fn find(&self, s: &str, is_match: &impl Fn(char) -> bool) -> Option<(usize, usize)> {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let class = self.class[usize::from(bytes[i])];
            if class != NONE {
                if class == WHOLE {
                    return Some((i, i + 1));
                }
                if let Some(width) = longer_match(s, i, is_match) {
                    return Some((i, i + width));
                }
            }
            i += 1;
        }
        None
    }
}

/// The width of the char starting at byte `i` of `s` (a first byte) when it matches.
/// Out of line: rare in most text, and the search loop inlines into its caller's
/// loop only while it stays small.
#[cold]
#[inline(never)]
fn longer_match(s: &str, i: usize, is_match: &impl Fn(char) -> bool) -> Option<usize> {
    let c = s[i..].chars().next()?;
    is_match(c).then(|| c.len_utf8())
}

/// `rest` from byte `end`, which ends a match that [`ByteClasses::find`] returned.
#[inline]
fn after(rest: &str, end: usize) -> &str {
    debug_assert!(rest.is_char_boundary(end));
    // SAFETY: a match ends after a whole ASCII byte or a whole decoded char, so `end`
    // is a char boundary within `rest`: the table marks only ASCII bytes and the first
    // bytes of longer chars (never a continuation byte), and a longer match is as wide
    // as the char decoded there, whatever `is_match` (maybe a user's closure) answers.
    unsafe { rest.get_unchecked(end..) }
}

/// `rest` up to byte `start`, which starts a match that [`ByteClasses::find`] returned.
#[inline]
fn before(rest: &str, start: usize) -> &str {
    debug_assert!(rest.is_char_boundary(start));
    // SAFETY: a match starts at an ASCII byte or at a char's first byte (see `after`),
    // so `start` is a char boundary within `rest`.
    unsafe { rest.get_unchecked(..start) }
}

/// `split`, by table: std's `str::split` for a pattern the table describes.
pub(super) struct ClassSplit<'ch, 'c, M> {
    /// What is left to split; `None` once the last piece is out.
    rest: Option<&'ch str>,
    classes: &'c ByteClasses,
    is_match: M,
}

impl<'ch, 'c, M: Fn(char) -> bool> ClassSplit<'ch, 'c, M> {
    #[inline]
    pub(super) fn new(s: &'ch str, classes: &'c ByteClasses, is_match: M) -> Self {
        ClassSplit {
            rest: Some(s),
            classes,
            is_match,
        }
    }
}

impl<'ch, M: Fn(char) -> bool> Iterator for ClassSplit<'ch, '_, M> {
    type Item = &'ch str;

    #[inline]
    fn next(&mut self) -> Option<&'ch str> {
        let rest = self.rest?;
        match self.classes.find(rest, &self.is_match) {
            Some((start, end)) => {
                self.rest = Some(after(rest, end));
                Some(before(rest, start))
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// `split_whitespace`, by table: the non-empty pieces between matches.
pub(super) struct ClassWords<'ch, 'c, M> {
    rest: &'ch str,
    classes: &'c ByteClasses,
    is_match: M,
}

impl<'ch, 'c, M: Fn(char) -> bool> ClassWords<'ch, 'c, M> {
    #[inline]
    pub(super) fn new(s: &'ch str, classes: &'c ByteClasses, is_match: M) -> Self {
        ClassWords {
            rest: s,
            classes,
            is_match,
        }
    }
}

impl<'ch, M: Fn(char) -> bool> Iterator for ClassWords<'ch, '_, M> {
    type Item = &'ch str;

    #[inline]
    fn next(&mut self) -> Option<&'ch str> {
        while !self.rest.is_empty() {
            let rest = self.rest;
            match self.classes.find(rest, &self.is_match) {
                Some((start, end)) => {
                    self.rest = after(rest, end);
                    if start > 0 {
                        return Some(before(rest, start));
                    }
                }
                None => {
                    self.rest = "";
                    return Some(rest);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whitespace_table_describes_every_whitespace_char() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut utf8 = [0; 4];
            let first = c.encode_utf8(&mut utf8).as_bytes()[0];
            let class = WHITESPACE.class[usize::from(first)];
            if c.is_ascii() {
                assert_eq!(class == WHOLE, c.is_whitespace(), "{c:?}");
            } else if c.is_whitespace() {
                assert_eq!(class, FIRST, "{c:?}");
            }
        }
        // No continuation byte is a first byte.
        assert!((0x80..0xC0).all(|b| WHITESPACE.class[b] == NONE));
    }

    #[test]
    fn splits_by_table_match_std() {
        let alphabet = [
            "a", ",", "é", "\n", "\r\n", " ", "𝄞", "\u{3000}", "\u{b}", "\u{85}", "\u{a0}",
            "\u{2028}", "\u{2010}", "\u{e1}", "bc", "\u{1680}", "\u{1681}",
        ];
        let sets: [&[char]; 4] = [
            &[',', ' '],
            &['é', '\u{3000}', '\n'],
            &['𝄞', '\u{2028}', '\u{85}'],
            &[],
        ];
        for n in 0..2000usize {
            let s: String = (0..n % 37)
                .map(|i| alphabet[(i * i + n * 7 + i / 5) % alphabet.len()])
                .collect();
            let s = s.as_str();
            let words: Vec<_> = ClassWords::new(s, &WHITESPACE, char::is_whitespace).collect();
            assert_eq!(words, s.split_whitespace().collect::<Vec<_>>(), "{s:?}");
            let set = sets[n % sets.len()];
            let classes = ByteClasses::of_chars(set);
            let pieces: Vec<_> = ClassSplit::new(s, &classes, |c| set.contains(&c)).collect();
            assert_eq!(pieces, s.split(set).collect::<Vec<_>>(), "{s:?} {set:?}");
        }
    }
}
