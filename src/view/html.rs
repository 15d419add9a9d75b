//! The viewer's page: `viewer/index.html` with its style and scripts inlined and the encoded run
//! in two script elements (the JSON header, and the binary stream in base64), so the one file
//! opens anywhere — from a CI artifact, from an email — with nothing to fetch.

use base64::Engine as _;

use super::encode::Encoded;

/// The viewer's sources, embedded in the binary: `cargo build` needs nothing but Rust.
const INDEX: &str = include_str!("../../viewer/index.html");
const STYLE: &str = include_str!("../../viewer/viewer.css");
const DECODE: &str = include_str!("../../viewer/decode.js");
const VIEWER: &str = include_str!("../../viewer/viewer.js");

/// The page for an encoded run.
pub fn page(run: &Encoded) -> String {
    // Inside a <script> element only `</` can end it early; `<\/` means the same in JSON.
    let meta = run.meta.to_string().replace("</", "<\\/");
    let data = base64::engine::general_purpose::STANDARD.encode(&run.data);
    let title = run.meta["name"].as_str().unwrap_or("run");
    let mut out =
        String::with_capacity(INDEX.len() + STYLE.len() + DECODE.len() + VIEWER.len() + meta.len() + data.len());
    // One pass over the template, so nothing inserted is searched for the next placeholder.
    let mut rest = INDEX;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let Some(end) = rest[at..].find("}}") else { break };
        match &rest[at + 2..at + end] {
            "title" => out.push_str(&escape_html(title)),
            "style" => out.push_str(STYLE),
            "decode" => out.push_str(DECODE),
            "viewer" => out.push_str(VIEWER),
            "meta" => out.push_str(&meta),
            "data" => out.push_str(&data),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &rest[at + end + 2..];
    }
    out.push_str(rest);
    out
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_everything_and_nothing_escapes_its_script() {
        let meta = serde_json::json!({ "name": "a <b> & </script>", "format": 1 });
        let html = page(&Encoded { meta, data: vec![1, 2, 3] });
        assert!(html.contains("<title>a &lt;b&gt; &amp; &lt;/script&gt; — Tactica</title>"), "{}", &html[..300]);
        assert!(html.contains(r#"<script id="tactica-data" type="application/octet-stream">AQID</script>"#));
        assert!(html.contains(r#""a <b> & <\/script>""#));
        assert!(!html.contains("{{"), "every placeholder is filled");
        assert!(!html.contains("http://") && !html.contains("https://"), "the page fetches nothing");
    }
}
