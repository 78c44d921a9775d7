//! A page's record from what its fetch gave: one function for the single-process frontier
//! and a shared crawl's workers, so that both record a page the same way.

use url::Url;

use crate::canon::{base_url, resolve_link};
use crate::decision::Decision;
use crate::dedup::{OnDuplicate, Verdict};
use crate::frontier::{Fetched, HtmlPage, unix_ms};
use crate::store::PageRecord;

/// The verdict on an HTML page, and its cluster where the judge knows better than the verdict
/// names it (`None`: as the verdict names it; an exact duplicate's cluster is its
/// original's, which only the judge knows).
pub type Judgement = (Verdict, Option<Option<u64>>);

/// The longest `<meta http-equiv=refresh>` delay, in seconds, that makes a page a redirect
/// (Scrapy's `METAREFRESH_MAXDELAY`): a page that sends the browser on sooner is a stub in
/// front of another address, not a page of the site's templates.
pub const MAX_REFRESH_DELAY: u64 = 100;

/// Where a page reached at `final_url` redirects by its `<meta http-equiv=refresh>`
/// (`delay` in seconds, `url` as written; `base`: its `<base href>`): the target, resolved as
/// a link is ([`resolve_link`]: `http`/`https` only, without its fragment), if the delay is
/// at most [`MAX_REFRESH_DELAY`] and the target is another address than the page's own (a
/// refresh of the page itself reloads a live page and is none). [`HtmlPage::redirect`] for
/// a fetched page.
#[must_use]
pub fn refresh_target(delay: u64, url: &str, base: Option<&str>, final_url: &Url) -> Option<Url> {
    if delay > MAX_REFRESH_DELAY {
        return None;
    }
    let target = resolve_link(&base_url(base, final_url), url)?;
    let mut own = final_url.clone();
    own.set_fragment(None);
    (target != own).then_some(target)
}

/// The record of page `id` (recorded now) from `fetched`. An HTML page gets the verdict of
/// `judge` (`None`: it was not judged, and is recorded as not HTML); it is emitted unless
/// it is a duplicate that `on_dup` does not keep, and its links are followed (the page is
/// returned with the URL its links resolve against) unless it is a duplicate that `on_dup`
/// drops. A page that redirects by its `<meta http-equiv=refresh>` ([`HtmlPage::redirect`]) is
/// not judged: it is recorded as a [`Decision::Redirect`] and its links (the target among
/// them) are followed. Every other record is emitted and followed by nothing.
///
/// # Errors
/// What `judge` returns.
pub fn page_record<E>(
    id: u64,
    fetched: Fetched,
    on_dup: OnDuplicate,
    judge: impl FnOnce(&Url, &HtmlPage, u128) -> Result<Option<Judgement>, E>,
) -> Result<(PageRecord, Option<(Url, HtmlPage)>), E> {
    let mut rec = PageRecord {
        id,
        recorded_ms: Some(unix_ms(std::time::SystemTime::now())),
        emitted: true,
        ..PageRecord::default()
    };
    let mut follow = None;
    match fetched {
        Fetched::Page {
            final_url,
            status,
            content_type,
            bytes,
            fetch_ms,
            body_hash,
            html,
        } => {
            rec.final_url = Some(final_url.to_string());
            rec.status = Some(status);
            rec.content_type = content_type;
            rec.bytes = Some(bytes);
            rec.fetch_ms = Some(fetch_ms);
            rec.body_hash = Some(body_hash);
            rec.decision = Decision::NotHtml;
            if let Some(page) = html.as_ref()
                && page.redirect(&final_url).is_some()
            {
                let page = html.unwrap_or_default();
                rec.decision = Decision::Redirect;
                rec.fingerprint = page.fingerprint.map(silhouette_simhash::Fingerprint::bits);
                rec.elements = Some(page.elements);
                return Ok((rec, Some((final_url, page))));
            }
            let judged = match &html {
                Some(page) => judge(&final_url, page, body_hash)?,
                None => None,
            };
            if let (Some(page), Some((verdict, cluster))) = (html, judged) {
                rec.fingerprint = page.fingerprint.map(silhouette_simhash::Fingerprint::bits);
                rec.elements = Some(page.elements);
                rec.truncated.clone_from(&page.truncated);
                rec.profile = Some(page.profile.clone());
                rec.content = *page.content;
                rec.decision = verdict.decision();
                rec.set_verdict(verdict);
                if let Some(cluster) = cluster {
                    rec.cluster = cluster;
                }
                rec.emitted = !verdict.is_duplicate() || on_dup == OnDuplicate::Keep;
                if !verdict.is_duplicate() || on_dup != OnDuplicate::Drop {
                    follow = Some((final_url, page));
                }
            }
        }
        Fetched::Failed {
            final_url,
            status,
            fetch_ms,
            decision,
            error,
        } => {
            rec.final_url = Some(final_url.to_string());
            rec.status = status;
            rec.fetch_ms = Some(fetch_ms);
            rec.decision = decision;
            rec.error = Some(error);
        }
        // (Both callers turn a page they give up waiting for into `Failed` first.)
        Fetched::Later { error, .. } => {
            rec.decision = Decision::Error;
            rec.error = Some(error);
        }
    }
    Ok((rec, follow))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: bool) -> Fetched {
        Fetched::Page {
            final_url: Url::parse("http://a/p").expect("url"),
            status: 200,
            content_type: Some("text/html".into()),
            bytes: 10,
            fetch_ms: 1,
            body_hash: 7,
            html: html.then(HtmlPage::default),
        }
    }

    /// (what was fetched, verdict, on-duplicate) → (decision, emitted, links followed).
    fn check(
        fetched: Fetched,
        verdict: Option<Verdict>,
        on_dup: OnDuplicate,
        expected: (Decision, bool, bool),
    ) {
        let judge = |_: &Url, _: &HtmlPage, hash| {
            assert_eq!(hash, 7);
            Ok::<_, ()>(verdict.map(|v| (v, Some(Some(3)))))
        };
        let (rec, follow) = page_record(1, fetched, on_dup, judge).expect("recorded");
        assert_eq!((rec.decision, rec.emitted, follow.is_some()), expected);
        assert!(rec.recorded_ms.is_some());
    }

    #[test]
    fn records_decide_emission_and_links_as_on_duplicate_says() {
        let kept = Verdict::Kept { cluster: 1 };
        let near = Verdict::NearDuplicate { of: 2, distance: 3 };
        use OnDuplicate::{Drop, FollowLinks, Keep};
        check(page(true), Some(kept), Drop, (Decision::Kept, true, true));
        check(
            page(true),
            Some(near),
            Drop,
            (Decision::NearDuplicate, false, false),
        );
        check(
            page(true),
            Some(near),
            FollowLinks,
            (Decision::NearDuplicate, false, true),
        );
        check(
            page(true),
            Some(near),
            Keep,
            (Decision::NearDuplicate, true, true),
        );
        check(page(false), None, Drop, (Decision::NotHtml, true, false));
        // Not judged (a shared crawl's page another worker recorded): not HTML, no links.
        check(page(true), None, Keep, (Decision::NotHtml, true, false));
        let failed = Fetched::Failed {
            final_url: Url::parse("http://a/p").expect("url"),
            status: Some(404),
            fetch_ms: 1,
            decision: Decision::Error,
            error: "404".into(),
        };
        check(failed, None, Keep, (Decision::Error, true, false));
        // A redirect by `<meta http-equiv=refresh>`: never judged (the judge would say kept),
        // emitted, its links followed whatever `on_dup` says.
        let stub = || {
            let mut f = page(true);
            if let Fetched::Page { html: Some(h), .. } = &mut f {
                h.refresh = Some(Box::new((0, "q".into())));
            }
            f
        };
        check(stub(), Some(kept), Drop, (Decision::Redirect, true, true));
        check(stub(), Some(near), Drop, (Decision::Redirect, true, true));
    }

    /// (delay, URL as written, `<base href>`) of a page at `http://a/d/p` → its target.
    fn target(delay: u64, url: &str, base: Option<&str>, expected: Option<&str>) {
        let at = Url::parse("http://a/d/p?x=1").expect("url");
        assert_eq!(
            refresh_target(delay, url, base, &at)
                .as_ref()
                .map(Url::as_str),
            expected,
            "{delay} {url} {base:?}"
        );
    }

    #[test]
    fn a_refresh_soon_to_another_address_is_a_redirect() {
        target(0, "../core/x.html", None, Some("http://a/core/x.html"));
        target(MAX_REFRESH_DELAY, "n#top", None, Some("http://a/d/n"));
        target(MAX_REFRESH_DELAY + 1, "n", None, None); // read first, then sent on
        target(0, "n", Some("/b/"), Some("http://a/b/n"));
        target(0, "http://127.0.0.2/o", None, Some("http://127.0.0.2/o")); // scope decides later
        // The page itself (a live page reloading), with or without a fragment.
        target(0, "p?x=1", None, None);
        target(0, "#here", None, None);
        target(0, "http://[bad", None, None);
        target(0, "javascript:go()", None, None);
        target(0, "mailto:a@b", None, None);
    }
}
