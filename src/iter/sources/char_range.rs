//! The indexed producer behind `char` ranges: chars are numbered without the
//! surrogate gap (`U+D800..=U+DFFF`), so a range of them is a range of numbers.

use std::ops::Range;

use crate::iter::plumbing::*;

const GAP_START: u32 = 0xD800;
const GAP_LEN: u32 = 0x800;

/// The number of a char once the surrogate gap is closed.
pub(super) fn char_index(c: char) -> u32 {
    let code = c as u32;
    if code >= GAP_START {
        code - GAP_LEN
    } else {
        code
    }
}

fn index_char(index: u32) -> char {
    let code = if index >= GAP_START {
        index + GAP_LEN
    } else {
        index
    };
    char::from_u32(code).expect("char index in range")
}

/// Chars by their numbers `range`.
pub(super) struct CharProducer {
    pub(super) range: Range<u32>,
}

impl Producer for CharProducer {
    type Item = char;
    type IntoIter = std::iter::Map<Range<u32>, fn(u32) -> char>;

    fn into_iter(self) -> Self::IntoIter {
        self.range.map(index_char as fn(u32) -> char)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let mid = self.range.start + index as u32;
        (
            CharProducer {
                range: self.range.start..mid,
            },
            CharProducer {
                range: mid..self.range.end,
            },
        )
    }
}
