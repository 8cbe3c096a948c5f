//! Random slices with separators and runs in random places: every split and group
//! equals std's, on pools of 1 to 8 workers.

use proptest::prelude::*;
use prorata::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slice_splits_match_std(v in prop::collection::vec(0u8..6, 0..600), threads in 1usize..9) {
        let pool = prorata::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let sep = |x: &u8| *x == 0;
            let got: Vec<&[u8]> = v.par_split(sep).collect();
            prop_assert_eq!(got, v.split(sep).collect::<Vec<_>>());
            let got: Vec<&[u8]> = v.par_split_inclusive(sep).collect();
            prop_assert_eq!(got, v.split_inclusive(sep).collect::<Vec<_>>());
            let got: Vec<&[u8]> = v.par_chunk_by(|a, b| a <= b).collect();
            prop_assert_eq!(got, v.chunk_by(|a, b| a <= b).collect::<Vec<_>>());
            Ok(())
        })?;
    }
}
