//! Which file a request names: its path percent-decoded, taken apart into names (never `..`),
//! and the file found checked against the page folder's canonical path, so that a symbolic
//! link inside the folder cannot lead out of it.

use std::path::{Component, Path, PathBuf};

/// The file a request's target names inside `root` (a canonical path), or `None` for a
/// target that would leave it or names nothing.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decoded(path)?;
    let mut file = root.to_path_buf();
    for part in Path::new(decoded.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    let mut file = file.canonicalize().ok()?;
    if file.is_dir() {
        file = file.join("index.html").canonicalize().ok()?;
    }
    (file.starts_with(root) && file.is_file()).then_some(file)
}

/// `path` with each `%XX` turned into its byte, or `None` when that is not UTF-8, holds a
/// NUL, or a `%` is not followed by two hex digits.
pub fn percent_decoded(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().filter(|s| !s.contains('\0'))
}

/// The media type a file is served with.
pub fn media_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The gzip-compressed copy of `file` that the build made beside it (`FILE.gz`), if there is
/// one inside `root`.
pub fn gzipped(root: &Path, file: &Path) -> Option<PathBuf> {
    let mut name = file.file_name()?.to_os_string();
    name.push(".gz");
    let packed = file.with_file_name(name).canonicalize().ok()?;
    (packed.starts_with(root) && packed.is_file()).then_some(packed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_never_leave_the_page_folder() {
        let dir = std::env::temp_dir().join(format!("tensh-page-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("page/sub")).unwrap();
        std::fs::write(dir.join("page/index.html"), "page").unwrap();
        std::fs::write(dir.join("page/sub/a b.js"), "js").unwrap();
        std::fs::write(dir.join("secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("page/leak.txt")).unwrap();
        let root = dir.join("page").canonicalize().unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/sub/a%20b.js?x=1"),
            Some(root.join("sub/a b.js"))
        );
        assert_eq!(
            resolve(&root, "/sub%2Fa%20b.js"),
            Some(root.join("sub/a b.js"))
        );
        assert_eq!(resolve(&root, "/sub/"), None);
        assert_eq!(resolve(&root, "/../secret.txt"), None);
        assert_eq!(resolve(&root, "/%2e%2e/secret.txt"), None);
        assert_eq!(resolve(&root, "/sub/..%2F..%2Fsecret.txt"), None);
        assert_eq!(resolve(&root, "/leak.txt"), None);
        assert_eq!(resolve(&root, "/missing"), None);
        assert_eq!(resolve(&root, "/bad%zz"), None);
        assert_eq!(resolve(&root, "/nul%00"), None);
        assert_eq!(media_type(Path::new("x.wasm")), "application/wasm");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
