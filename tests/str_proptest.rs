//! Random strings over a small alphabet of separators, whitespace, line endings and
//! multi-byte chars: every split equals std's, on pools of 1 to 8 workers.

use proptest::prelude::*;
use prorata::prelude::*;

const ALPHABET: [&str; 16] = [
    "a", ",", " ", "\n", "\r\n", "é", "中", "𝄞", "\u{3000}", ",,", "\t", "\u{b}", "\u{a0}", "¢",
    "\u{2028}", "\u{2010}",
];

fn texts() -> impl Strategy<Value = String> {
    prop::collection::vec(0..ALPHABET.len(), 0..400)
        .prop_map(|picks| picks.into_iter().map(|i| ALPHABET[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn string_splits_match_std(s in texts(), threads in 1usize..9) {
        let pool = prorata::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let got: Vec<&str> = s.par_split(',').collect();
            prop_assert_eq!(got, s.split(',').collect::<Vec<_>>());
            let got: Vec<&str> = s.par_split([',', '\u{a0}', '𝄞']).collect();
            prop_assert_eq!(got, s.split([',', '\u{a0}', '𝄞']).collect::<Vec<_>>());
            let got: Vec<&str> = s.par_split_terminator(&[',', '中'][..]).collect();
            prop_assert_eq!(got, s.split_terminator(&[',', '中'][..]).collect::<Vec<_>>());
            let got: Vec<&str> = s.par_split_terminator('中').collect();
            prop_assert_eq!(got, s.split_terminator('中').collect::<Vec<_>>());
            let got: Vec<&str> = s.par_split_inclusive(['\n', '𝄞']).collect();
            prop_assert_eq!(got, s.split_inclusive(['\n', '𝄞']).collect::<Vec<_>>());
            let got: Vec<&str> = s.par_lines().collect();
            prop_assert_eq!(got, s.lines().collect::<Vec<_>>());
            let got: Vec<&str> = s.par_split_whitespace().collect();
            prop_assert_eq!(got, s.split_whitespace().collect::<Vec<_>>());
            let got: Vec<(usize, char)> = s.par_char_indices().collect();
            prop_assert_eq!(got, s.char_indices().collect::<Vec<_>>());
            Ok(())
        })?;
    }
}
