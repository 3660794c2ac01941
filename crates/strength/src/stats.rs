//! The statistics of a strength comparison: paired differences with a
//! Student's t interval, and Spearman's rank correlation.

/// The differences `a[i] - b[i]` of paired measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    pub n: usize,
    pub mean_diff: f64,
    /// Sample standard deviation of the differences (n - 1 in the
    /// denominator; NaN below two pairs).
    pub sd: f64,
    /// 95% confidence interval of the mean difference (Student's t with
    /// n - 1 degrees of freedom; NaN below two pairs).
    pub ci95: (f64, f64),
    /// Pairs where a is larger, smaller, equal.
    pub wins: usize,
    pub losses: usize,
    pub ties: usize,
}

impl Paired {
    /// Does the interval leave out 0 (a difference at the 5% level)?
    pub fn excludes_zero(&self) -> bool {
        self.ci95.0 > 0.0 || self.ci95.1 < 0.0
    }
}

/// Paired differences of `a` and `b` (the same length).
pub fn paired(a: &[f64], b: &[f64]) -> Paired {
    assert_eq!(a.len(), b.len(), "paired measurements come in pairs");
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    let mean = d.iter().sum::<f64>() / n as f64;
    let (sd, ci95) = if n >= 2 {
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let half = t_975(n - 1) * sd / (n as f64).sqrt();
        (sd, (mean - half, mean + half))
    } else {
        (f64::NAN, (f64::NAN, f64::NAN))
    };
    Paired {
        n,
        mean_diff: mean,
        sd,
        ci95,
        wins: d.iter().filter(|&&x| x > 0.0).count(),
        losses: d.iter().filter(|&&x| x < 0.0).count(),
        ties: d.iter().filter(|&&x| x == 0.0).count(),
    }
}

/// The mean of `x`; NaN when `x` is empty (a measure no start or game
/// gave, such as rows frozen where every line was too short).
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Paired differences over the pairs where both sides have a value (a
/// measure a short line cannot give, such as rows frozen per 100 pieces):
/// pairing only those keeps a side's missing values from being read as a
/// difference.
pub fn paired_where_both(a: &[Option<f64>], b: &[Option<f64>]) -> Paired {
    assert_eq!(a.len(), b.len(), "paired measurements come in pairs");
    let (x, y): (Vec<f64>, Vec<f64>) = a.iter().zip(b).filter_map(|(x, y)| Some(((*x)?, (*y)?))).unzip();
    paired(&x, &y)
}

/// Student's t quantile 0.975 for `df` degrees of freedom: the exact
/// values (to 9 digits) up to 30, above that the Cornish-Fisher expansion
/// around the normal quantile in powers of 1/df, whose error at 30 is
/// below 1e-5 and shrinks as df grows.
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706204736,
        4.302652730,
        3.182446305,
        2.776445105,
        2.570581836,
        2.446911851,
        2.364624252,
        2.306004135,
        2.262157163,
        2.228138852,
        2.200985160,
        2.178812830,
        2.160368656,
        2.144786688,
        2.131449546,
        2.119905299,
        2.109815578,
        2.100922040,
        2.093024054,
        2.085963447,
        2.079613845,
        2.073873068,
        2.068657610,
        2.063898562,
        2.059538553,
        2.055529439,
        2.051830516,
        2.048407142,
        2.045229642,
        2.042272456,
    ];
    assert!(df >= 1, "a t quantile needs one degree of freedom or more");
    if df <= TABLE.len() {
        return TABLE[df - 1];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * n)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n * n * n)
}

/// Ranks from 1, ties given the mean of the ranks they span.
fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        // Positions i..=j hold ranks i+1..=j+1.
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation: Pearson's correlation of the ranks (ties
/// averaged). NaN when either side is constant or has fewer than two values.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len(), "a correlation needs pairs");
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-5
    }

    /// Differences 2, 3, 0, 3: mean 2, squares about the mean 0 + 1 + 4 + 1
    /// = 6, variance 6 / 3 = 2, standard error sqrt(2) / 2, t(3) = 3.182446,
    /// half width 2.250327.
    #[test]
    fn paired_differences_by_hand() {
        let p = paired(&[3.0, 5.0, 4.0, 8.0], &[1.0, 2.0, 4.0, 5.0]);
        assert_eq!((p.n, p.wins, p.losses, p.ties), (4, 3, 0, 1));
        assert!(close(p.mean_diff, 2.0));
        assert!(close(p.sd, 2f64.sqrt()));
        assert!(close(p.ci95.0, 2.0 - 2.250327), "{:?}", p.ci95);
        assert!(close(p.ci95.1, 2.0 + 2.250327), "{:?}", p.ci95);
        assert!(!p.excludes_zero());
        // Swapped sides: the mirror image.
        let q = paired(&[1.0, 2.0, 4.0, 5.0], &[3.0, 5.0, 4.0, 8.0]);
        assert_eq!((q.wins, q.losses, q.ties), (0, 3, 1));
        assert!(close(q.ci95.0, -p.ci95.1) && close(q.ci95.1, -p.ci95.0));
    }

    /// Differences 1, 2, 3: mean 2, variance 1, standard error 1/sqrt(3),
    /// t(2) = 4.302653: the interval 2 -+ 2.484137 includes 0; differences
    /// 1, 1.5, 2, 1.5, 1.5 (mean 1.5, variance 0.125, t(4) = 2.776445,
    /// half width 0.438986) exclude it.
    #[test]
    fn intervals_include_or_exclude_zero() {
        let p = paired(&[1.0, 2.0, 3.0], &[0.0, 0.0, 0.0]);
        assert!(close(p.ci95.0, 2.0 - 2.484137) && close(p.ci95.1, 2.0 + 2.484137), "{:?}", p.ci95);
        assert!(!p.excludes_zero());
        let q = paired(&[1.0, 1.5, 2.0, 1.5, 1.5], &[0.0; 5]);
        assert!(close(q.ci95.0, 1.5 - 0.438986) && close(q.ci95.1, 1.5 + 0.438986), "{:?}", q.ci95);
        assert!(q.excludes_zero());
        let one = paired(&[1.0], &[0.0]);
        assert!(one.sd.is_nan() && !one.excludes_zero());
    }

    /// The expansion continues the table smoothly and tends to the normal
    /// quantile (t(60) = 2.000298, t(120) = 1.979930 from published tables).
    #[test]
    fn t_quantiles_beyond_the_table() {
        assert!((t_975(31) - 2.039513).abs() < 1e-5);
        assert!((t_975(60) - 2.000298).abs() < 1e-5);
        assert!((t_975(120) - 1.979930).abs() < 1e-5);
        assert!(t_975(30) > t_975(31) && t_975(31) > t_975(1000) && t_975(1000) > 1.96);
    }

    /// y = 5, 6, 7, 8, 7 has ranks 1, 2, 3.5, 5, 3.5; against x's 1..5 the
    /// centred ranks give sum of products 8, squares 10 and 9.5:
    /// 8 / sqrt(95) = 0.820783.
    #[test]
    fn spearman_by_hand() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert!(close(spearman(&x, &[5.0, 6.0, 7.0, 8.0, 7.0]), 8.0 / 95f64.sqrt()));
        assert_eq!(ranks(&[5.0, 6.0, 7.0, 8.0, 7.0]), [1.0, 2.0, 3.5, 5.0, 3.5]);
        // Any increasing map is a perfect correlation, any decreasing a perfect anticorrelation.
        assert!(close(spearman(&x, &[1.0, 10.0, 100.0, 1000.0, 10000.0]), 1.0));
        assert!(close(spearman(&x, &[3.0, 2.0, 1.0, 0.0, -7.0]), -1.0));
        assert!(spearman(&x, &[2.0; 5]).is_nan());
    }
}
