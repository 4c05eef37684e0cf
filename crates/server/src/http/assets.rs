//! The page: the front end built into `web/dist` and embedded in the binary
//! (in debug builds read from that folder at run time), or a short page
//! that says how to build it.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// `web/dist`, embedded. The folder may be missing (the front end not built
/// yet); the server then serves [`NOT_BUILT`] instead.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/dist/"]
#[allow_missing = true]
struct Dist;

/// The page shown when the front end was not built.
const NOT_BUILT: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Koma</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<h1>Koma</h1>
<p>The server is running, but this copy of Koma was built without its
front end, so there is no board to show yet.</p>
<p>Build the front end, then Koma again:</p>
<pre>cd web &amp;&amp; npm ci &amp;&amp; npm run build &amp;&amp; cd ..
cargo run --release -p koma -- serve --open</pre>
<p>The JSON API works already: see <code>docs/API.md</code>
(<a href="/api/variants">/api/variants</a>).</p>
</body>
</html>
"#;

/// The MIME type of a file, by its extension.
fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    match extension.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "txt" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        // The byoyomi count's voice (web/src/sound/voice).
        "mp3" => "audio/mpeg",
        "md" => "text/markdown; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn file(path: &str, bytes: Vec<u8>) -> Response {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    // No hashes in the file names to rely on: always revalidate.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The folder a debug build serves the front end from instead of the one it
/// was compiled beside: `KOMA_WEB_DIR`, so that a front end built in another
/// checkout (a git worktree) can be tried without building Koma there too.
/// Release builds always serve what they embed.
fn override_folder() -> Option<std::path::PathBuf> {
    if cfg!(debug_assertions) {
        std::env::var_os("KOMA_WEB_DIR").map(std::path::PathBuf::from)
    } else {
        None
    }
}

/// The bytes of a file of the front end, by its path inside `web/dist`
/// (already checked not to leave it).
fn lookup(relative: &str) -> Option<Vec<u8>> {
    lookup_in(override_folder().as_deref(), relative)
}

fn lookup_in(folder: Option<&std::path::Path>, relative: &str) -> Option<Vec<u8>> {
    match folder {
        Some(folder) => std::fs::read(folder.join(relative)).ok(),
        None => Dist::get(relative).map(|found| found.data.into_owned()),
    }
}

fn index() -> Response {
    match lookup("index.html") {
        Some(bytes) => file("index.html", bytes),
        None => file("index.html", NOT_BUILT.as_bytes().to_vec()),
    }
}

/// The answer to `GET path` outside `/api/`.
pub fn serve(path: &str) -> Response {
    let relative = path.trim_start_matches('/');
    if relative.is_empty() || relative == "index.html" {
        return index();
    }
    // Debug builds read the folder from disk: never let a path leave it.
    let safe = !relative
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
        && !relative.contains(['\\', '\0', ':']);
    if safe {
        if let Some(bytes) = lookup(relative) {
            return file(relative, bytes);
        }
    }
    let last = relative.rsplit('/').next().unwrap_or("");
    if safe && !last.contains('.') {
        // A page address (e.g. `/game/…`) that the front end routes itself.
        return index();
    }
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Not found.\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_there_built_or_not() {
        let response = serve("/");
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
    }

    #[test]
    fn a_folder_given_is_read_instead_of_the_embedded_one() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("app.js"), "// elsewhere\n").unwrap();
        assert_eq!(
            lookup_in(Some(folder.path()), "app.js").as_deref(),
            Some(&b"// elsewhere\n"[..])
        );
        assert_eq!(lookup_in(Some(folder.path()), "index.html"), None);
    }

    #[test]
    fn files_are_served_as_their_kind() {
        for (path, kind) in [
            ("sound/voice/ja/10.mp3", "audio/mpeg"),
            ("app.js", "text/javascript; charset=utf-8"),
            ("favicon.svg", "image/svg+xml"),
            ("sound/voice/README.md", "text/markdown; charset=utf-8"),
            ("no-extension", "application/octet-stream"),
        ] {
            assert_eq!(content_type(path), kind, "{path}");
        }
    }

    #[test]
    fn paths_cannot_leave_the_folder() {
        for path in [
            "/../Cargo.toml",
            "/a/../../x.js",
            "/..%2f/x.css",
            "//etc/passwd.txt",
        ] {
            let response = serve(path);
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        }
    }
}
