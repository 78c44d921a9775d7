"""Crawl benchmark baseline: a minimal Scrapy CrawlSpider that follows every same-host link.

Run by scripts/bench-crawl.sh as

    scrapy runspider bench/scrapy_baseline.py -a start=URL -s CONCURRENT_REQUESTS=N \
        -s LOG_LEVEL=INFO -s STATS_FILE=stats.json

No items, no pipelines, no delay, AutoThrottle off, robots.txt obeyed. At the end the crawl
stats (response_received_count, downloader/response_count, ...) are written as JSON to the
file named by the STATS_FILE setting, if given.
"""
import json
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class SameHostSpider(CrawlSpider):
    name = "same_host"
    custom_settings = {
        "ROBOTSTXT_OBEY": True,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "COOKIES_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "ITEM_PIPELINES": {},
        "DEPTH_LIMIT": 0,
    }

    def __init__(self, start, *args, **kwargs):
        netloc = urlsplit(start).netloc  # host:port: the LinkExtractor compares the netloc
        host = urlsplit(start).hostname  # the offsite middleware compares the host name
        self.start_urls = [start]
        self.allowed_domains = [host]
        self.rules = (Rule(LinkExtractor(allow_domains=[netloc]), follow=True),)
        super().__init__(*args, **kwargs)

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider._write_stats, signal=signals.spider_closed)
        return spider

    def _write_stats(self, spider, reason):
        path = self.crawler.settings.get("STATS_FILE")
        if path:
            stats = {k: (v if isinstance(v, (int, float, str)) else str(v))
                     for k, v in self.crawler.stats.get_stats().items()}
            stats["finish_reason"] = reason
            with open(path, "w") as f:
                json.dump(stats, f, indent=1, sort_keys=True)
