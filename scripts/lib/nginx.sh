# Sourced by the bench scripts: the Debian packages they need, free loopback ports, and one
# nginx serving directories on 127.0.0.1 (one worker process, as every figure in
# BENCHMARKS.md was measured).
#
#   bench_need PKG...          installs the Debian packages not installed yet (apt-get update
#                              only when the package lists do not know them)
#   free_port                  prints a free TCP port on 127.0.0.1
#   nginx_start DIR NAME=ROOT...
#                              one server per NAME serving ROOT on a free port: sets PORT_NAME
#                              (e.g. PORT_python) and NGINX_PID; with NGINX_ACCESS_LOG=1 each
#                              server logs '$msec $status $request_uri' to DIR/NAME.log
#   nginx_stop                 stops it (the scripts call it from their EXIT trap)
#   bench_crawl_config FILE [N] [ON_DUPLICATE]
#                              writes the crawl configuration the speed figures use: rate
#                              limits off, concurrency N (default 16) overall and per host,
#                              on-duplicate = ON_DUPLICATE (default "follow-links": every page
#                              fetched)

bench_need() {
    local missing=() pkg sudo=""
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    apt-cache show "${missing[@]}" >/dev/null 2>&1 || $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

NGINX_PID=""

nginx_start() {
    local dir="$1" site name root port servers="" used=" "
    shift
    mkdir -p "$dir/tmp"
    for site in "$@"; do
        name="${site%%=*}"
        root="${site#*=}"
        port="$(free_port)"
        while [[ "$used" == *" $port "* ]]; do port="$(free_port)"; done
        used+="$port "
        printf -v "PORT_$name" '%s' "$port"
        local log="access_log off;"
        [ "${NGINX_ACCESS_LOG:-0}" = 1 ] && log="access_log $dir/$name.log bench;"
        servers+="    server { listen 127.0.0.1:$port; root $root; $log }
"
    done
    cat > "$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format bench '\$msec \$status \$request_uri';
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
$servers}
CONF
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" &
    NGINX_PID=$!
    # Ready when every port answers.
    local tries=0 p
    for site in "$@"; do
        name="${site%%=*}"
        p="PORT_$name"
        until python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "${!p}" 2>/dev/null; do
            tries=$((tries + 1))
            [ "$tries" -lt 100 ] || { echo "nginx did not start (see $dir/error.log)" >&2; return 1; }
            sleep 0.05
        done
    done
}

nginx_stop() {
    if [ -n "$NGINX_PID" ]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
        NGINX_PID=""
    fi
}

bench_crawl_config() {
    local conc="${2:-16}" on_duplicate="${3:-follow-links}"
    cat > "$1" <<TOML
[fetch]
request-interval-ms = 0
per-host-concurrency = $conc
[crawl]
concurrency = $conc
max-depth = 1000
[dedup]
on-duplicate = "$on_duplicate"
TOML
}
