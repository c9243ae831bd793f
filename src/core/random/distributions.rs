//! How each random op turns the generator's stream into values, path by path as PyTorch's
//! CPU kernels do: uniform (float from 24 bits, double from 53), normal (a cached double
//! Box–Muller pair below 16 elements, batched 16 at a time above), integers in a range,
//! permutations and Bernoulli draws.

use super::generator::Generator;
use super::mathfun::{log_ps, sincos_ps};
use crate::core::dtype::DType;
use crate::core::element::round_to;

/// One uniform draw in `[from, to)` for `dtype`, before rounding to it: doubles take 53 bits
/// of two draws; every other floating type takes 24 bits of one draw.
pub fn uniform(g: &mut Generator, dtype: DType, from: f64, to: f64) -> f64 {
    if dtype == DType::Float64 {
        let x = (g.random64() & ((1u64 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64);
        x * (to - from) + from
    } else {
        let (from, range) = scaled_bounds(dtype, from, to);
        uniform_24_bits(g.random(), from, range)
    }
}

/// `from` and `to - from` as PyTorch's kernel for `dtype` holds them: float32 casts both
/// bounds to float and subtracts them in float (its draws then scale in double, checked
/// against PyTorch draw by draw); the half types keep the double bounds.
fn scaled_bounds(dtype: DType, from: f64, to: f64) -> (f64, f64) {
    if dtype == DType::Float32 {
        let (from, to) = (from as f32, to as f32);
        (from as f64, (to - from) as f64)
    } else {
        (from, to - from)
    }
}

/// One draw's low 24 bits scaled into `[from, from + range)` in double precision (rounded
/// once when stored): every floating type but double.
#[inline(always)]
fn uniform_24_bits(draw: u32, from: f64, range: f64) -> f64 {
    let x = (draw & ((1u32 << 24) - 1)) as f64 / (1u64 << 24) as f64;
    x * range + from
}

/// One uniform double in `[0, 1)`: the draw behind PyTorch's samplers that work in double.
pub fn unit_double(g: &mut Generator) -> f64 {
    uniform(g, DType::Float64, 0.0, 1.0)
}

/// One normal sample from the double Box–Muller pair, using and refilling the cache.
pub fn normal_scalar(g: &mut Generator, mean: f64, std: f64) -> f64 {
    if let Some(cached) = g.next_double_normal.take() {
        return cached * std + mean;
    }
    let u1 = uniform(g, DType::Float64, 0.0, 1.0);
    let u2 = uniform(g, DType::Float64, 0.0, 1.0);
    let r = (-2.0 * (-u2).ln_1p()).sqrt();
    let theta = 2.0 * std::f64::consts::PI * u1;
    g.next_double_normal = Some(r * theta.sin());
    r * theta.cos() * std + mean
}

/// The float32 batched path (`n >= 16`) as a vector (see `normal_f32_fill`).
pub fn normal_f32_batched(g: &mut Generator, n: usize, mean: f32, std: f32) -> Vec<f32> {
    let mut bytes = vec![0u8; n * 4];
    normal_f32_fill(g, &mut bytes, mean, std);
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// A fill of a dense run of elements with uniform values in `[from, to)`.
pub type UniformFill = fn(&mut Generator, &mut [u8], f64, f64);

/// Elements handled per step of the in-place float32 paths (a stack buffer's worth).
const STEP: usize = 1024;

/// `uniform(g, Float32, from, to)` for every element of `out` (little-endian floats), in
/// order, scaling in double precision as the one-draw path does.
pub fn uniform_f32_fill(g: &mut Generator, out: &mut [u8], from: f64, to: f64) {
    uniform_24_fill(g, out, DType::Float32, from, to, |x| {
        (x as f32).to_le_bytes()
    });
}

/// `uniform(g, dtype, from, to)` for every element of `out`, a dense run of elements of a
/// floating dtype other than double, each stored as `encode` stores it (`W` bytes): one
/// 32-bit draw per element, drawn in blocks, Ctrl-C checked between blocks.
pub fn uniform_24_fill<const W: usize>(
    g: &mut Generator,
    out: &mut [u8],
    dtype: DType,
    from: f64,
    to: f64,
    encode: impl Fn(f64) -> [u8; W],
) {
    let (from, range) = scaled_bounds(dtype, from, to);
    let mut draws = [0u32; STEP];
    for (i, chunk) in out.chunks_mut(STEP * W).enumerate() {
        if i & 255 == 0 {
            crate::core::interrupt::check();
        }
        let draws = &mut draws[..chunk.len() / W];
        g.fill_random(draws);
        for (o, &r) in chunk.chunks_exact_mut(W).zip(draws.iter()) {
            o.copy_from_slice(&encode(uniform_24_bits(r, from, range)));
        }
    }
}

/// `uniform(g, Float64, from, to)` for every element of `out` (little-endian doubles).
pub fn uniform_f64_fill(g: &mut Generator, out: &mut [u8], from: f64, to: f64) {
    for (i, o) in out.chunks_exact_mut(8).enumerate() {
        crate::core::interrupt::check_every(i);
        o.copy_from_slice(&uniform(g, DType::Float64, from, to).to_le_bytes());
    }
}

/// The float32 batched path (`n >= 16`) written straight into `out` (`n` little-endian
/// floats): every uniform draw in `[0, 1)` first, in order, then Box–Muller over whole 16-value blocks
/// (split between the two threads: blocks are independent), then, when `n` is not a multiple
/// of 16, the last 16 values drawn afresh and transformed again.
pub fn normal_f32_fill(g: &mut Generator, out: &mut [u8], mean: f32, std: f32) {
    let n = out.len() / 4;
    uniform_f32_fill(g, out, 0.0, 1.0);
    let blocks = n / 16 * 16;
    let (body, _) = out.split_at_mut(blocks * 4);
    if blocks >= crate::core::kernels::PARALLEL_MIN {
        let (first, second) = body.split_at_mut(blocks / 32 * 16 * 4);
        crate::core::kernels::pair::join(
            || normal_blocks_in_bytes(first, mean, std),
            || normal_blocks_in_bytes(second, mean, std),
        );
    } else {
        normal_blocks_in_bytes(body, mean, std);
    }
    if !n.is_multiple_of(16) {
        let tail = &mut out[(n - 16) * 4..];
        uniform_f32_fill(g, tail, 0.0, 1.0);
        normal_blocks_in_bytes(tail, mean, std);
    }
}

/// `normal_blocks` over little-endian floats (a multiple of 16 of them), through a stack
/// buffer so the bytes need no alignment.
fn normal_blocks_in_bytes(bytes: &mut [u8], mean: f32, std: f32) {
    let mut values = [0f32; STEP];
    for chunk in bytes.chunks_mut(STEP * 4) {
        let values = &mut values[..chunk.len() / 4];
        for (v, b) in values.iter_mut().zip(chunk.chunks_exact(4)) {
            *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        normal_blocks(values, mean, std);
        for (b, v) in chunk.chunks_exact_mut(4).zip(values.iter()) {
            b.copy_from_slice(&v.to_le_bytes());
        }
    }
}

/// Box–Muller over whole 16-value blocks. With hardware FMA the same code is compiled for it
/// (fused multiply-adds are exactly rounded in hardware and software alike, so results do not
/// change, only speed).
fn normal_blocks(data: &mut [f32], mean: f32, std: f32) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports FMA and AVX2 (checked just above), the only requirement
        // of calling a function compiled with those target features.
        unsafe { normal_blocks_fma(data, mean, std) };
        return;
    }
    normal_blocks_portable(data, mean, std);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma,avx2")]
fn normal_blocks_fma(data: &mut [f32], mean: f32, std: f32) {
    for block in data.chunks_exact_mut(16) {
        normal_16_f32_native(block, mean, std);
    }
}

fn normal_blocks_portable(data: &mut [f32], mean: f32, std: f32) {
    for block in data.chunks_exact_mut(16) {
        normal_16_f32_native(block, mean, std);
    }
}

#[inline(always)]
fn normal_16_f32_native(data: &mut [f32], mean: f32, std: f32) {
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    // `x * 1 + 0` is exact, so the standard normal needs no fused multiply-add (which is a
    // slow library call on CPUs without FMA in the compile target).
    let standard = std == 1.0 && mean == 0.0;
    // Each stage over all eight lanes at once, as the AVX2 kernel does, so it vectorises.
    let mut radius = [0f32; 8];
    let mut sin = [0f32; 8];
    let mut cos = [0f32; 8];
    for j in 0..8 {
        radius[j] = (-2.0 * log_ps(1.0 - data[j])).sqrt();
    }
    for j in 0..8 {
        (sin[j], cos[j]) = sincos_ps(two_pi * data[j + 8]);
    }
    for j in 0..8 {
        let (n1, n2) = (radius[j] * cos[j], radius[j] * sin[j]);
        if standard {
            data[j] = n1;
            data[j + 8] = n2;
        } else {
            data[j] = n1.mul_add(std, mean);
            data[j + 8] = n2.mul_add(std, mean);
        }
    }
}

/// Box–Muller over 16 uniform draws in place, in double precision with the C library's
/// `log`, `cos` and `sin`.
fn normal_16_f64(data: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u2;
        data[j] = radius * theta.cos() * std + mean;
        data[j + 8] = radius * theta.sin() * std + mean;
    }
}

/// Box–Muller over one block of 16 fresh float draws, in float with the C library's
/// functions: the half-precision path, which rounds only the results.
fn normal_16_reduced(g: &mut Generator, block: &mut [f64], mean: f32, std: f32) {
    let u: [f32; 16] = std::array::from_fn(|_| uniform(g, DType::Float32, 0.0, 1.0) as f32);
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    for j in 0..8 {
        let radius = (-2.0 * (1.0 - u[j]).ln()).sqrt();
        let theta = two_pi * u[j + 8];
        block[j] = (radius * theta.cos() * std + mean) as f64;
        block[j + 8] = (radius * theta.sin() * std + mean) as f64;
    }
}

/// `n` normal samples for `dtype`, in storage order, by PyTorch's path for that size. The
/// samples' buffer comes from `core::alloc`, so a size no memory holds is PyTorch's error.
pub fn normal_values(
    g: &mut Generator,
    n: usize,
    dtype: DType,
    mean: f64,
    std: f64,
) -> crate::core::error::Result<Vec<f64>> {
    let mut data: Vec<f64> = crate::core::memory::alloc::vec_with_capacity(n)?;
    if n < 16 {
        data.extend((0..n).map(|_| round_to(dtype, normal_scalar(g, mean, std))));
        return Ok(data);
    }
    if dtype == DType::Float32 {
        data.extend(
            normal_f32_batched(g, n, mean as f32, std as f32)
                .into_iter()
                .map(f64::from),
        );
        return Ok(data);
    }
    if matches!(dtype, DType::Float16 | DType::BFloat16) {
        // Each block of 16 (and a last block ending at `n`) draws its own uniforms.
        data.resize(n, 0.0);
        let (m, s) = (round_to(dtype, mean) as f32, round_to(dtype, std) as f32);
        let mut i = 0;
        while i + 16 <= n {
            normal_16_reduced(g, &mut data[i..i + 16], m, s);
            i += 16;
        }
        if !n.is_multiple_of(16) {
            normal_16_reduced(g, &mut data[n - 16..], m, s);
        }
        for x in &mut data {
            *x = round_to(dtype, *x);
        }
        return Ok(data);
    }
    data.extend((0..n).map(|_| uniform(g, dtype, 0.0, 1.0)));
    // Only double reaches here: float32 and the half types returned above.
    let fill = |block: &mut [f64]| normal_16_f64(block, mean, std);
    let mut i = 0;
    while i + 16 <= n {
        fill(&mut data[i..i + 16]);
        i += 16;
    }
    if !n.is_multiple_of(16) {
        // PyTorch redraws the last 16 values and transforms them again.
        let tail = &mut data[n - 16..];
        for v in tail.iter_mut() {
            *v = uniform(g, dtype, 0.0, 1.0);
        }
        fill(tail);
    }
    Ok(data)
}

/// An integer in `[base, base + range)`: one 32-bit draw modulo the range below 2^28, one
/// 64-bit draw from 2^28 up (the threshold PyTorch 2.15 uses, measured with the oracle).
pub fn int_from_to(g: &mut Generator, range: u64, base: i64) -> i64 {
    if range >= 1u64 << 28 {
        (g.random64() % range) as i64 + base
    } else {
        // Below 2^28 both sides fit 32 bits: the same remainder by the faster division.
        i64::from(g.random() % range as u32) + base
    }
}

/// `randperm(n)`: a shuffle by swaps for small `n`, the inside-out shuffle for huge `n`.
pub fn permutation(g: &mut Generator, n: i64) -> crate::core::error::Result<Vec<i64>> {
    let mut v = crate::core::memory::alloc::vec_with_capacity(n.max(0) as usize)?;
    if n < (u32::MAX / 20) as i64 {
        v.extend(0..n);
        for i in 0..(n - 1).max(0) {
            let z = g.random() as i64 % (n - i);
            v.swap(i as usize, (z + i) as usize);
        }
        Ok(v)
    } else {
        v.resize(n as usize, 0);
        for i in 0..n {
            let z = (g.random64() % (i as u64 + 1)) as usize;
            v[i as usize] = v[z];
            v[z] = i;
        }
        Ok(v)
    }
}

/// One Bernoulli draw with probability `p` (a float uniform draw, or double when `p` is).
pub fn bernoulli(g: &mut Generator, p: f64, p_is_double: bool) -> bool {
    let u = if p_is_double {
        uniform(g, DType::Float64, 0.0, 1.0)
    } else {
        uniform(g, DType::Float32, 0.0, 1.0)
    };
    u < p
}

#[cfg(test)]
mod fma_dispatch_tests {
    use super::*;

    /// The FMA-compiled blocks and the portable ones give identical bits.
    #[test]
    fn both_block_paths_agree() {
        let uniform: Vec<f32> = (0..4096u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32) / (1u32 << 24) as f32)
            .collect();
        for (mean, std) in [(0.0, 1.0), (1.5, 0.25)] {
            let mut a = uniform.clone();
            let mut b = uniform.clone();
            normal_blocks(&mut a, mean, std);
            normal_blocks_portable(&mut b, mean, std);
            assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
        }
    }
}
