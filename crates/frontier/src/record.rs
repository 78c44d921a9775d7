//! A page's record from what its fetch gave: one function for the single-process frontier
//! and a shared crawl's workers, so that both record a page the same way.

use url::Url;

use crate::decision::Decision;
use crate::dedup::{OnDuplicate, Verdict};
use crate::frontier::{Fetched, HtmlPage, unix_ms};
use crate::store::PageRecord;

/// The verdict on an HTML page, and its cluster where the judge knows better than the verdict
/// names it (`None`: as the verdict names it; an exact duplicate's cluster is its
/// original's, which only the judge knows).
pub type Judgement = (Verdict, Option<Option<u64>>);

/// The record of page `id` (recorded now) from `fetched`. An HTML page gets the verdict of
/// `judge` (`None`: it was not judged, and is recorded as not HTML); it is emitted unless
/// it is a duplicate that `on_dup` does not keep, and its links are followed (the page is
/// returned with the URL its links resolve against) unless it is a duplicate that `on_dup`
/// drops. Every other record is emitted and followed by nothing.
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
    }
}
