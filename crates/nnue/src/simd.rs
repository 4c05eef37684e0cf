//! The two loops inference spends its time in, in AVX2 where the processor
//! has it and in plain Rust otherwise. Both give the same numbers: the
//! accumulator's sums wrap as 16-bit integers in either, so an update and
//! a refresh agree even if a sum overflowed.

use crate::shape::{HIDDEN, QA};

/// Whether this processor runs the AVX2 loops (checked once per network).
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `to = from + Σ added − Σ removed`, by lanes.
#[inline]
pub fn update(
    avx2: bool,
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only where the processor has AVX2.
        unsafe { update_avx2(to, from, added, removed) };
        return;
    }
    let _ = avx2;
    update_scalar(to, from, added, removed);
}

/// The plain version of [`update`].
pub fn update_scalar(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    *to = *from;
    for row in added {
        for (lane, weight) in to.iter_mut().zip(row.iter()) {
            *lane = lane.wrapping_add(*weight);
        }
    }
    for row in removed {
        for (lane, weight) in to.iter_mut().zip(row.iter()) {
            *lane = lane.wrapping_sub(*weight);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    for row in added.iter().chain(removed) {
        assert!(row.len() >= HIDDEN);
    }
    // A move's update has one or two rows each way. With their number
    // known when compiled, the rows' addresses stay in registers and the
    // loops over them unroll: walking the slices of rows again for every
    // sixteen lanes cost more than the additions.
    match (added.len(), removed.len()) {
        (1, 1) => update_rows_avx2::<1, 1>(to, from, added, removed),
        (1, 2) => update_rows_avx2::<1, 2>(to, from, added, removed),
        (2, 1) => update_rows_avx2::<2, 1>(to, from, added, removed),
        (2, 2) => update_rows_avx2::<2, 2>(to, from, added, removed),
        _ => update_any_rows_avx2(to, from, added, removed),
    }
}

/// [`update_avx2`] for `ADDED` and `REMOVED` rows, each at least
/// [`HIDDEN`] long.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_rows_avx2<const ADDED: usize, const REMOVED: usize>(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    use std::arch::x86_64::*;
    let added: [*const i16; ADDED] = std::array::from_fn(|i| added[i].as_ptr());
    let removed: [*const i16; REMOVED] = std::array::from_fn(|i| removed[i].as_ptr());
    let mut chunk = 0;
    while chunk < HIDDEN {
        let mut sum = _mm256_loadu_si256(from.as_ptr().add(chunk).cast());
        for row in added {
            sum = _mm256_add_epi16(sum, _mm256_loadu_si256(row.add(chunk).cast()));
        }
        for row in removed {
            sum = _mm256_sub_epi16(sum, _mm256_loadu_si256(row.add(chunk).cast()));
        }
        _mm256_storeu_si256(to.as_mut_ptr().add(chunk).cast(), sum);
        chunk += 16;
    }
}

/// [`update_avx2`] for any number of rows, each at least [`HIDDEN`] long.
///
/// The same loop as [`update_rows_avx2`]'s, over a slice of rows. One
/// loop for both, generic over where the rows come from, searched the
/// bench's same nodes in 0.5 % more instructions (stop 84,
/// docs/PERFORMANCE.md), so the two stay apart.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_any_rows_avx2(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    use std::arch::x86_64::*;
    // Sixteen lanes a register: the whole of one side (256) in 16 registers.
    let mut chunk = 0;
    while chunk < HIDDEN {
        let mut sum = _mm256_loadu_si256(from.as_ptr().add(chunk).cast());
        for row in added {
            sum = _mm256_add_epi16(sum, _mm256_loadu_si256(row.as_ptr().add(chunk).cast()));
        }
        for row in removed {
            sum = _mm256_sub_epi16(sum, _mm256_loadu_si256(row.as_ptr().add(chunk).cast()));
        }
        _mm256_storeu_si256(to.as_mut_ptr().add(chunk).cast(), sum);
        chunk += 16;
    }
}

/// `Σ clamp(us, 0, QA) · weights[..HIDDEN] + Σ clamp(them, 0, QA) ·
/// weights[HIDDEN..]`: the output layer over both sides' accumulators.
#[inline]
pub fn output(
    avx2: bool,
    us: &[i16; HIDDEN],
    them: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only where the processor has AVX2.
        return unsafe { output_avx2(us, them, weights) };
    }
    let _ = avx2;
    output_scalar(us, them, weights)
}

/// The plain version of [`output`].
pub fn output_scalar(us: &[i16; HIDDEN], them: &[i16; HIDDEN], weights: &[i16; 2 * HIDDEN]) -> i32 {
    let side = |lanes: &[i16; HIDDEN], weights: &[i16]| -> i32 {
        lanes
            .iter()
            .zip(weights)
            .map(|(&lane, &weight)| i32::from(lane).clamp(0, QA) * i32::from(weight))
            .fold(0i32, i32::wrapping_add)
    };
    // Wrapping as the AVX2 lanes do (a trained network stays far inside).
    side(us, &weights[..HIDDEN]).wrapping_add(side(them, &weights[HIDDEN..]))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_avx2(
    us: &[i16; HIDDEN],
    them: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (lanes, offset) in [(us, 0), (them, HIDDEN)] {
        let mut chunk = 0;
        while chunk < HIDDEN {
            let value = _mm256_loadu_si256(lanes.as_ptr().add(chunk).cast());
            let value = _mm256_min_epi16(_mm256_max_epi16(value, zero), top);
            let weight = _mm256_loadu_si256(weights.as_ptr().add(offset + chunk).cast());
            // Pairs of 16-bit products summed into 32 bits: at most
            // 2 · 255 · 32767, within an i32.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(value, weight));
            chunk += 16;
        }
    }
    horizontal_sum(sum)
}

/// The sum of a register's eight 32-bit lanes, wrapping.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn horizontal_sum(sum: std::arch::x86_64::__m256i) -> i32 {
    use std::arch::x86_64::*;
    let high = _mm256_extracti128_si256(sum, 1);
    let low = _mm256_castsi256_si128(sum);
    let four = _mm_add_epi32(high, low);
    let two = _mm_add_epi32(four, _mm_unpackhi_epi64(four, four));
    let one = _mm_add_epi32(two, _mm_shuffle_epi32(two, 1));
    _mm_cvtsi128_si32(one)
}

/// `to[i] = clamp(from[i], 0, QA)`: an accumulator's values as the head
/// reads them.
#[inline]
pub fn clip(avx2: bool, from: &[i16; HIDDEN], to: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only where the processor has AVX2.
        unsafe { clip_avx2(from, to) };
        return;
    }
    let _ = avx2;
    for (to, &from) in to.iter_mut().zip(from) {
        *to = from.clamp(0, QA as i16);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn clip_avx2(from: &[i16; HIDDEN], to: &mut [i16]) {
    use std::arch::x86_64::*;
    assert!(to.len() >= HIDDEN);
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(QA as i16);
    let mut chunk = 0;
    while chunk < HIDDEN {
        let value = _mm256_loadu_si256(from.as_ptr().add(chunk).cast());
        let value = _mm256_min_epi16(_mm256_max_epi16(value, zero), top);
        _mm256_storeu_si256(to.as_mut_ptr().add(chunk).cast(), value);
        chunk += 16;
    }
}

/// `Σ a[i] · b[i]` over the shorter of the two, in 32 bits, wrapping as
/// the AVX2 lanes do (a trained network's sums stay far inside).
#[inline]
pub fn dot(avx2: bool, a: &[i16], b: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only where the processor has AVX2.
        return unsafe { dot_avx2(a, b) };
    }
    let _ = avx2;
    dot_scalar(a, b)
}

/// The plain version of [`dot`].
pub fn dot_scalar(a: &[i16], b: &[i16]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| i32::from(x) * i32::from(y))
        .fold(0i32, i32::wrapping_add)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_avx2(a: &[i16], b: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    let len = a.len().min(b.len());
    let whole = len - len % 16;
    let mut sum = _mm256_setzero_si256();
    let mut chunk = 0;
    while chunk < whole {
        let x = _mm256_loadu_si256(a.as_ptr().add(chunk).cast());
        let y = _mm256_loadu_si256(b.as_ptr().add(chunk).cast());
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, y));
        chunk += 16;
    }
    horizontal_sum(sum).wrapping_add(dot_scalar(&a[whole..len], &b[whole..len]))
}

/// `out[j] = dot(input, weights[j · n..(j + 1) · n])` for every output `j`,
/// `n` being `input.len()`: a layer's sums. In AVX2, eight outputs at a
/// time share each load of the input, where the input's length is a
/// multiple of 16 and the outputs' of 8; otherwise one by one.
#[inline]
pub fn dots(avx2: bool, input: &[i16], weights: &[i16], out: &mut [i32]) {
    let n = input.len();
    assert!(weights.len() >= n * out.len());
    #[cfg(target_arch = "x86_64")]
    if avx2 && n % 16 == 0 && out.len() % 8 == 0 {
        // SAFETY: `avx2` is true only where the processor has AVX2; the
        // lengths were checked above.
        unsafe { dots_avx2(input, weights, out) };
        return;
    }
    for (j, sum) in out.iter_mut().enumerate() {
        *sum = dot(avx2, input, &weights[j * n..(j + 1) * n]);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dots_avx2(input: &[i16], weights: &[i16], out: &mut [i32]) {
    use std::arch::x86_64::*;
    let n = input.len();
    for group in (0..out.len()).step_by(8) {
        let mut sums = [_mm256_setzero_si256(); 8];
        let mut chunk = 0;
        while chunk < n {
            let x = _mm256_loadu_si256(input.as_ptr().add(chunk).cast());
            for (k, sum) in sums.iter_mut().enumerate() {
                let row = weights.as_ptr().add((group + k) * n + chunk);
                let w = _mm256_loadu_si256(row.cast());
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(x, w));
            }
            chunk += 16;
        }
        // Eight registers of eight partial sums into one of eight totals:
        // pairwise adds within each half, then the halves added.
        let s01 = _mm256_hadd_epi32(sums[0], sums[1]);
        let s23 = _mm256_hadd_epi32(sums[2], sums[3]);
        let s45 = _mm256_hadd_epi32(sums[4], sums[5]);
        let s67 = _mm256_hadd_epi32(sums[6], sums[7]);
        let s0123 = _mm256_hadd_epi32(s01, s23);
        let s4567 = _mm256_hadd_epi32(s45, s67);
        let low = _mm256_permute2x128_si256(s0123, s4567, 0x20);
        let high = _mm256_permute2x128_si256(s0123, s4567, 0x31);
        let totals = _mm256_add_epi32(low, high);
        _mm256_storeu_si256(out.as_mut_ptr().add(group).cast(), totals);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_lanes(rng: &mut ChaCha8Rng, spread: i16) -> [i16; HIDDEN] {
        std::array::from_fn(|_| rng.random_range(-spread..=spread))
    }

    #[test]
    fn avx2_and_scalar_agree() {
        if !has_avx2() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            // Sums past ±32767 wrap the same way in both.
            let from = random_lanes(&mut rng, i16::MAX);
            let rows: Vec<[i16; HIDDEN]> = (0..6).map(|_| random_lanes(&mut rng, 20000)).collect();
            let rows: Vec<&[i16]> = rows.iter().map(|row| &row[..]).collect();
            // Every count of rows each way up to three: the counts a move
            // has unrolled, the others by the general loop.
            let (mut simd, mut plain) = ([0; HIDDEN], [0; HIDDEN]);
            for adds in 0..=3 {
                for removes in 0..=3 {
                    let (added, removed) = (&rows[..adds], &rows[3..3 + removes]);
                    update(true, &mut simd, &from, added, removed);
                    update_scalar(&mut plain, &from, added, removed);
                    assert_eq!(simd, plain, "{adds} added, {removes} removed");
                }
            }
            let weights: [i16; 2 * HIDDEN] =
                std::array::from_fn(|_| rng.random_range(-30000..=30000));
            let them = random_lanes(&mut rng, 400);
            assert_eq!(
                output(true, &simd, &them, &weights),
                output_scalar(&simd, &them, &weights)
            );
        }
    }

    #[test]
    fn dot_and_clip_agree_with_their_plain_versions() {
        if !has_avx2() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for len in [0, 1, 15, 16, 17, 32, 100, 512] {
            let a: Vec<i16> = (0..len).map(|_| rng.random_range(0..=QA as i16)).collect();
            let b: Vec<i16> = (0..len).map(|_| rng.random_range(-8000..=8000)).collect();
            assert_eq!(dot(true, &a, &b), dot_scalar(&a, &b), "length {len}");
        }
        for (n, outputs) in [(512, 16), (16, 32), (32, 1), (48, 8), (20, 8)] {
            let input: Vec<i16> = (0..n).map(|_| rng.random_range(0..=QA as i16)).collect();
            let weights: Vec<i16> = (0..n * outputs)
                .map(|_| rng.random_range(-8000..=8000))
                .collect();
            let (mut simd, mut plain) = (vec![0; outputs], vec![0; outputs]);
            dots(true, &input, &weights, &mut simd);
            dots(false, &input, &weights, &mut plain);
            assert_eq!(simd, plain, "{n} inputs, {outputs} outputs");
            let first = dot_scalar(&input, &weights[..n]);
            assert_eq!(plain[0], first);
        }
        let from = random_lanes(&mut rng, 1000);
        let (mut simd, mut plain) = ([0i16; HIDDEN], [0i16; HIDDEN]);
        clip(true, &from, &mut simd);
        clip(false, &from, &mut plain);
        assert_eq!(simd, plain);
        assert!(plain.iter().all(|&v| (0..=QA as i16).contains(&v)));
        assert!(plain.contains(&0) && plain.contains(&(QA as i16)));
    }

    #[test]
    fn output_clamps_each_lane_to_zero_and_qa() {
        let mut us = [0i16; HIDDEN];
        us[0] = -50;
        us[1] = 100;
        us[2] = 1000;
        let them = [0i16; HIDDEN];
        let weights = [2i16; 2 * HIDDEN];
        let expected = 2 * (100 + QA);
        assert_eq!(output_scalar(&us, &them, &weights), expected);
        assert_eq!(output(has_avx2(), &us, &them, &weights), expected);
    }
}
