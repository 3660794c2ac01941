// Diagnostic: how well does a network fit a generation's refine targets
// *within one depth* (what the beam's cut compares) rather than across
// depths (what the learn step's squared error mostly sees)?
//
// The depth of a sampled well is not stored; it is recovered from the
// samples' order (a depth's samples are written together) and its cells:
// cells = 4 d - 10 lines, so d mod 5 = 3 (cells / 2) mod 5, and each new
// depth changes d mod 5.
use hatetris_eval::{Evaluator, Network, QuantizedNetwork};
use hatetris_learn::dataset::read_dataset;
use online::arg;

fn depth_residue(rows: &[u16]) -> u32 {
    let cells: u32 = rows.iter().map(|r| r.count_ones()).sum();
    (3 * (cells / 2)) % 5
}

/// Pairwise concordance of x with t over pairs whose targets differ.
fn concordance(x: &[f32], t: &[f32]) -> (f64, f64) {
    let (mut c, mut n) = (0.0, 0.0);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            if t[i] == t[j] {
                continue;
            }
            n += 1.0;
            let s = (x[i] - x[j]) * (t[i] - t[j]);
            c += if s > 0.0 {
                1.0
            } else if s == 0.0 {
                0.5
            } else {
                0.0
            };
        }
    }
    (c, n)
}

fn main() {
    let dir = arg("--cycle", "/work/runs/gen-b/r25/cycle-002");
    let every: usize = arg("--every", "16").parse().unwrap();
    let nets: Vec<String> = arg("--nets", "").split(',').filter(|p| !p.is_empty()).map(String::from).collect();
    let samples = read_dataset(std::path::Path::new(&format!("{dir}/samples.htds"))).unwrap();
    let refined = read_dataset(std::path::Path::new(&format!("{dir}/refined.htds"))).unwrap();
    let mut depth = vec![0usize; samples.len()];
    let mut cur = 0usize;
    for (i, s) in samples.iter().enumerate() {
        let r = depth_residue(s.rows()) as usize;
        if i == 0 || r != cur % 5 {
            cur += 1;
            while cur % 5 != r {
                cur += 1;
            }
        }
        depth[i] = cur;
    }
    let rdepth: Vec<usize> = (0..refined.len()).map(|j| depth[j * every]).collect();
    for (j, r) in refined.iter().enumerate() {
        assert_eq!(r.rows(), samples[j * every].rows(), "refined well {j} is not sample {}", j * every);
    }
    let last = *rdepth.last().unwrap();
    eprintln!("{} samples, {} refined, depths 1-{last}", samples.len(), refined.len());
    let thirds = [(1, last / 3), (last / 3 + 1, 2 * last / 3), (2 * last / 3 + 1, last)];
    println!("network\tdepths\tn\tsd_target\tsd_within\tmse\tmse_within\tconcord_within");
    for path in &nets {
        let q = QuantizedNetwork::new(&Network::load(std::path::Path::new(path)).unwrap());
        let x: Vec<f32> = refined.iter().map(|s| q.evaluate(s.rows())).collect();
        for band in thirds {
            let (mut n, mut st, mut st2, mut wv, mut se, mut sew, mut cc, mut cn) =
                (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
            for d in band.0..=band.1 {
                let idx: Vec<usize> = (0..refined.len()).filter(|&j| rdepth[j] == d).collect();
                if idx.len() < 2 {
                    continue;
                }
                let xs: Vec<f32> = idx.iter().map(|&j| x[j]).collect();
                let ts: Vec<f32> = idx.iter().map(|&j| refined[j].target).collect();
                let k = idx.len() as f64;
                let mt = ts.iter().map(|&t| t as f64).sum::<f64>() / k;
                let mr = xs.iter().zip(&ts).map(|(&a, &b)| (a - b) as f64).sum::<f64>() / k;
                for (&a, &b) in xs.iter().zip(&ts) {
                    n += 1.0;
                    st += b as f64;
                    st2 += (b as f64) * (b as f64);
                    wv += (b as f64 - mt).powi(2);
                    se += ((a - b) as f64).powi(2);
                    sew += ((a - b) as f64 - mr).powi(2);
                }
                let (c, m) = concordance(&xs, &ts);
                cc += c;
                cn += m;
            }
            let var = st2 / n - (st / n).powi(2);
            println!(
                "{path}\t{}-{}\t{}\t{:.4}\t{:.4}\t{:.5}\t{:.5}\t{:.3}",
                band.0,
                band.1,
                n,
                var.sqrt(),
                (wv / n).sqrt(),
                se / n,
                sew / n,
                cc / cn
            );
        }
    }
}
