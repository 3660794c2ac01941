//! Line plots of losses (or any series over epochs, cycles or minutes) as
//! PNG files: the one crate that depends on `plotters`, and only with its
//! `png` feature (on by default; off, the runs write no plots).

#[cfg(feature = "png")]
use plotters::prelude::*;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
#[error("cannot draw plot {path}: {what}")]
pub struct PlotError {
    pub path: String,
    pub what: String,
}

#[cfg(feature = "png")]
const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Draws `series` (name, points) as lines on one chart, 960x540, with a
/// title, axes and a legend; a log y axis when the values are positive and
/// span more than 20x. Points that are not finite are left out. If
/// text cannot be drawn (no usable font on the machine), the chart is drawn
/// without any text rather than not at all.
#[cfg(feature = "png")]
pub fn plot_losses(path: &Path, title: &str, series: &[(&str, Vec<(f64, f64)>)]) -> Result<(), PlotError> {
    let clean: Vec<(&str, Vec<(f64, f64)>)> = series
        .iter()
        .map(|(name, pts)| (*name, pts.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite()).collect()))
        .collect();
    draw(path, title, &clean, true).or_else(|_| draw(path, title, &clean, false))
}

/// `[lo, hi]` of `values` widened by 5% (and to a unit range around a
/// single value), or `[0, 1]` when there are none.
#[cfg(feature = "png")]
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    if lo > hi {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { (hi - lo) * 0.05 } else { lo.abs().max(1.0) * 0.5 };
    (lo - pad, hi + pad)
}

#[cfg(feature = "png")]
fn draw(path: &Path, title: &str, series: &[(&str, Vec<(f64, f64)>)], text: bool) -> Result<(), PlotError> {
    let fail = |e: &dyn std::fmt::Display| PlotError { path: path.display().to_string(), what: e.to_string() };
    // Losses fall by orders of magnitude: positive values spanning more
    // than 20x are drawn as log10 and labelled with their values.
    let ys = || series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
    let (lo, hi) = ys().fold((f64::INFINITY, 0.0f64), |(l, h), y| (l.min(y), h.max(y)));
    let log = lo > 0.0 && hi / lo >= 20.0;
    let log_series: Vec<(&str, Vec<(f64, f64)>)>;
    let series = if log {
        log_series = series.iter().map(|(n, p)| (*n, p.iter().map(|&(x, y)| (x, y.log10())).collect())).collect();
        &log_series[..]
    } else {
        series
    };
    let (x0, x1) = range(series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0)));
    let (y0, y1) = range(series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1)));
    let root = BitMapBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if text {
        builder.caption(title, ("sans-serif", 26)).x_label_area_size(40).y_label_area_size(80);
    }
    let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1).map_err(|e| fail(&e))?;
    let mut mesh = chart.configure_mesh();
    if text {
        mesh.x_labels(10).y_labels(8).label_style(("sans-serif", 15));
        if log {
            mesh.y_label_formatter(&|v| format!("{:.1e}", 10f64.powf(*v))).y_desc("log scale");
        }
    } else {
        mesh.disable_x_axis().disable_y_axis();
    }
    mesh.draw().map_err(|e| fail(&e))?;
    for (i, (name, points)) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let line =
            chart.draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2))).map_err(|e| fail(&e))?;
        if text {
            line.label(*name).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        }
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| fail(&e))?;
    }
    if text && !series.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

/// Built without the `png` feature (and so without `plotters`): draws
/// nothing.
#[cfg(not(feature = "png"))]
pub fn plot_losses(_path: &Path, _title: &str, _series: &[(&str, Vec<(f64, f64)>)]) -> Result<(), PlotError> {
    Ok(())
}

#[cfg(all(test, feature = "png"))]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("loss.png");
        let train: Vec<(f64, f64)> = (1..=12).map(|e| (e as f64, 0.3 / e as f64)).collect();
        let val: Vec<(f64, f64)> = (1..=12).map(|e| (e as f64, 0.32 / e as f64 + 0.01)).collect();
        let series = [("training", train), ("validation", val)];
        plot_losses(&path, "loss per epoch", &series).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        // To look at it: HATETRIS_PLOT_SAMPLE=DIR cargo test ... writes_a_png.
        if let Ok(keep) = std::env::var("HATETRIS_PLOT_SAMPLE") {
            std::fs::copy(&path, Path::new(&keep).join("sample.png")).unwrap();
        }
        // The fallback for machines without fonts draws too.
        draw(&path, "no text", &series, false).unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[1..4], b"PNG");
        // One point, no points, and non-finite values still draw.
        plot_losses(&path, "one", &[("a", vec![(1.0, 0.5)])]).unwrap();
        plot_losses(&path, "none", &[("a", vec![]), ("b", vec![(f64::NAN, 1.0)])]).unwrap();
    }

    #[test]
    fn an_unwritable_path_is_an_error() {
        let err = plot_losses(Path::new("/nonexistent-dir/x.png"), "t", &[("a", vec![(1.0, 1.0)])]).unwrap_err();
        assert!(err.to_string().contains("/nonexistent-dir/x.png"), "{err}");
    }
}
