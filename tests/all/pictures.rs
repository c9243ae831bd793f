//! The SVG pictures of `explain(..., #{svg})`: the committed pictures in `docs/pictures` are
//! exactly what `scripts/pictures.rhai` draws (byte for byte, every run), and each one,
//! rendered by a real SVG renderer (resvg), shows every index in the colour of the storage
//! slot it is linked to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `scripts/pictures.rhai` in a fresh folder; returns the pictures it wrote.
fn draw_pictures(tag: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("tensh-pictures-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs/pictures")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(Path::new(ROOT).join("scripts/pictures.rhai"))
        .current_dir(&dir)
        .output()
        .expect("run tensh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pictures = svg_files(&dir.join("docs/pictures"));
    let _ = std::fs::remove_dir_all(&dir);
    pictures
}

fn svg_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            found.insert(name, std::fs::read(&path).unwrap());
        }
    }
    found
}

fn committed() -> BTreeMap<String, Vec<u8>> {
    svg_files(&Path::new(ROOT).join("docs/pictures"))
}

#[test]
fn the_committed_pictures_are_what_the_script_draws_every_run() {
    let first = draw_pictures("a");
    let second = draw_pictures("b");
    assert!(first.len() >= 8, "{:?}", first.keys());
    assert_eq!(first, second, "two runs drew different bytes");
    let committed = committed();
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        committed.keys().collect::<Vec<_>>(),
        "docs/pictures differs from what scripts/pictures.rhai writes"
    );
    for (name, bytes) in &first {
        assert!(
            committed[name] == *bytes,
            "docs/pictures/{name} is out of date: run `tensh scripts/pictures.rhai` from the \
             repository's root"
        );
    }
}

/// The value of attribute `name` in one SVG element's text.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = element.find(&key)? + key.len();
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

fn number(element: &str, name: &str) -> u32 {
    attr(element, name).unwrap().parse().unwrap()
}

fn rgb(hex: &str) -> [u8; 3] {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [c(1), c(3), c(5)]
}

/// A rendered picture's pixel at (x, y), as RGB.
fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 3] {
    let p = pixmap.pixel(x, y).expect("inside the picture");
    [p.red(), p.green(), p.blue()]
}

fn render(svg: &[u8]) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_data(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[test]
fn every_index_has_the_colour_of_the_slot_it_reads() {
    let pictures = committed();
    assert!(!pictures.is_empty());
    for (name, bytes) in pictures {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let pixmap = render(&bytes);
        let mut slots: BTreeMap<u32, Vec<(u32, u32, [u8; 3])>> = BTreeMap::new();
        for line in text.lines().filter(|l| l.contains("class=\"slot\"")) {
            let (x, y, w) = (number(line, "x"), number(line, "y"), number(line, "width"));
            let fill = rgb(attr(line, "fill").unwrap());
            // The band's own pixels are its colour (a renderer that dropped it would not).
            assert_eq!(pixel(&pixmap, x + w / 2, y + 3), fill, "{name}: {line}");
            slots
                .entry(number(line, "data-slot"))
                .or_default()
                .push((x, y, fill));
        }
        let mut cells = 0;
        for line in text.lines().filter(|l| l.contains("class=\"cell\"")) {
            cells += 1;
            let fill = rgb(attr(line, "fill").unwrap());
            let (x, y) = (number(line, "x"), number(line, "y"));
            assert_eq!(pixel(&pixmap, x + 3, y + 3), fill, "{name}: {line}");
            for slot in attr(line, "data-slots").unwrap().split(' ') {
                let bands = &slots[&slot.parse::<u32>().unwrap()];
                assert!(
                    bands
                        .iter()
                        .any(|(bx, by, c)| *c == fill && pixel(&pixmap, bx + 3, by + 3) == fill),
                    "{name}: index {} is not drawn in its slot {slot}'s colours",
                    attr(line, "data-index").unwrap()
                );
            }
        }
        assert!(cells > 0, "{name} draws no index");
    }
}

#[test]
fn a_picture_too_big_to_read_is_refused_before_any_output() {
    let dir = std::env::temp_dir().join(format!("tensh-big-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("big.rhai"),
        "try { explain(torch::arange(1000), #{svg: \"never.svg\"}) } catch (e) { print(e) }",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg("big.rhai")
        .current_dir(&dir)
        .output()
        .expect("run tensh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("ValueError: explain(..., #{svg}) draws at most 256 elements"),
        "{stdout}"
    );
    assert!(!dir.join("never.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kernel_logos_are_drawn_from_the_logo_svg() {
    let tree = resvg::usvg::Tree::from_str(
        tensh::jupyter::spec::LOGO_SVG,
        &resvg::usvg::Options::default(),
    )
    .unwrap();
    for px in [32u32, 64] {
        let scale = px as f32 / tree.size().width();
        let mut drawn = resvg::tiny_skia::Pixmap::new(px, px).unwrap();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::from_scale(scale, scale),
            &mut drawn.as_mut(),
        );
        let path = format!("src/jupyter/logo/logo-{px}x{px}.png");
        let committed = resvg::tiny_skia::Pixmap::load_png(&path).unwrap();
        assert_eq!((committed.width(), committed.height()), (px, px), "{path}");
        let far = drawn
            .data()
            .iter()
            .zip(committed.data())
            .filter(|(a, b)| a.abs_diff(**b) > 2)
            .count();
        assert_eq!(far, 0, "{path} is not the logo drawn at {px} pixels");
    }
}
