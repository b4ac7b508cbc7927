#!/usr/bin/env bash
# Single-node KRaft Kafka broker from Maven Central, for local runs and CI (issue 5).
#
#   bash scripts/kafka/broker.sh start  [--port 9092] [--state-dir DIR]
#                                                       fetch (once), format (once), start, wait until ready
#   bash scripts/kafka/broker.sh stop   [--port P | --state-dir DIR | --all]
#                                                       stop the default broker, the one on port P,
#                                                       the one of DIR, or every broker of this cache
#   bash scripts/kafka/broker.sh status [--port P | --state-dir DIR]
#                                                       say whether it is running (and name the others)
#   bash scripts/kafka/broker.sh smoke                  round trip through the running broker
#                                                       (create topic, produce, consume, compare)
#
# Everything lives in .cache/kafka/ (gitignored): lib/ (jars), data/ (log dirs), cluster-id,
# server.properties, log4j.properties, broker.log, broker.pid. Loopback only (127.0.0.1).
# --state-dir runs another broker beside it: its own data, config, log and pid under DIR (the jars
# stay shared in the cache); pass the same --state-dir (or its --port) to stop/status/smoke it.
# Each running broker is listed in <cache>/brokers/<port> (its state folder), which is how
# --port and --all find a broker started with --state-dir.
# The controller listens on port+1. Environment overrides:
#   KAFKA_CACHE_DIR        cache folder (default <repo>/.cache/kafka)
#   KAFKA_HEAP_OPTS        JVM heap (default -Xms256m -Xmx512m)
#   KAFKA_START_TIMEOUT    seconds to wait for readiness (default 60)
#   KAFKA_STOP_TIMEOUT     seconds to wait for a clean exit before SIGKILL (default 30)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
POM="$SCRIPT_DIR/pom.xml"
CACHE="${KAFKA_CACHE_DIR:-$REPO_ROOT/.cache/kafka}"
LIB="$CACHE/lib"
HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-60}"
STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
HOST=127.0.0.1

say() { echo "kafka: $*"; }
die() { echo "kafka: error: $*" >&2; exit 1; }

usage() {
  cat >&2 <<EOF
usage: $0 start|stop|status|smoke [--port 9092] [--state-dir DIR]
       $0 stop --all
A broker started with --state-dir DIR is stopped with the same --state-dir DIR or with its --port;
plain "stop" stops only the default broker (port 9092, state in $CACHE) and names the others.
EOF
  exit 2
}

# --- arguments ---------------------------------------------------------------------------------
[ $# -ge 1 ] || usage
CMD="$1"; shift
PORT=9092
STATE="$CACHE"
PORT_GIVEN=""
STATE_GIVEN=""
ALL=""
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || usage; PORT="$2"; PORT_GIVEN=1; shift 2 ;;
    --port=*) PORT="${1#--port=}"; PORT_GIVEN=1; shift ;;
    --state-dir) [ $# -ge 2 ] || usage; STATE="$2"; STATE_GIVEN=1; shift 2 ;;
    --state-dir=*) STATE="${1#--state-dir=}"; STATE_GIVEN=1; shift ;;
    --all) ALL=1; shift ;;
    *) usage ;;
  esac
done
REGISTRY="$CACHE/brokers"
# Outside `start`, --port alone names a broker started with --state-dir on that port.
if [ "$CMD" != start ] && [ -n "$PORT_GIVEN" ] && [ -z "$STATE_GIVEN" ] && [ -s "$REGISTRY/$PORT" ]; then
  STATE="$(cat "$REGISTRY/$PORT")"
fi
mkdir -p "$STATE"
STATE="$(cd "$STATE" && pwd)"
DATA="$STATE/data"
PID_FILE="$STATE/broker.pid"
PORT_FILE="$STATE/broker.port"
LOG_FILE="$STATE/broker.log"
CONFIG="$STATE/server.properties"
LOG4J="$STATE/log4j.properties"
CLUSTER_ID_FILE="$STATE/cluster-id"
[[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65534 ] || die "invalid --port '$PORT'"
CONTROLLER_PORT=$((PORT + 1))

# --- helpers -----------------------------------------------------------------------------------
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# Prints the pid of the broker started from this cache, if it is alive; clears a stale pid file.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
     && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $CONFIG"; then
    echo "$pid"
    return 0
  fi
  rm -f "$PID_FILE"   # stale: the process is gone or the pid now belongs to something else
  echo "kafka: removed stale pid file (pid $pid is not a broker from this cache)" >&2
  return 1
}

classpath() { echo "$LIB/*"; }

# "port state-dir" of every broker of this cache that is still running (stale entries removed).
registered_brokers() {
  local entry port state pid
  for entry in "$REGISTRY"/*; do
    [ -f "$entry" ] || continue
    port="$(basename "$entry")"
    state="$(cat "$entry")"
    pid="$(cat "$state/broker.pid" 2>/dev/null || true)"
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
       && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $state/server.properties"; then
      echo "$port $state"
    else
      rm -f "$entry"
    fi
  done
}

# After "not running": name the other brokers of this cache and how to reach them.
mention_others() {
  local port state
  while read -r port state; do
    [ "$state" = "$STATE" ] && continue
    say "also running: port $port (--state-dir $state): $1 it with --port $port or --state-dir $state"
  done < <(registered_brokers)
}

fetch_deps() {
  local want have=""
  want="$(sha256sum "$POM" | cut -d' ' -f1)"
  [ -f "$LIB/.pom.sha256" ] && have="$(cat "$LIB/.pom.sha256")"
  if [ "$want" = "$have" ] && ls "$LIB"/kafka_2.13-*.jar >/dev/null 2>&1; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (needed once to fetch the broker from Maven Central)"
  say "fetching the broker and its classpath from Maven Central into $LIB ..."
  local started=$SECONDS tmp="$CACHE/lib.tmp"
  rm -rf "$tmp"
  # outputDirectory must be absolute: Maven resolves a relative one against the POM's folder.
  mvn -q -B -f "$POM" dependency:copy-dependencies -DoutputDirectory="$tmp" >"$CACHE/fetch.log" 2>&1 \
    || { tail -n 20 "$CACHE/fetch.log" >&2; die "maven fetch failed (full output: $CACHE/fetch.log)"; }
  ls "$tmp"/kafka_2.13-*.jar >/dev/null 2>&1 || die "maven fetch produced no kafka_2.13 jar"
  echo "$want" >"$tmp/.pom.sha256"
  rm -rf "$LIB"
  mv "$tmp" "$LIB"
  say "fetched $(ls "$LIB"/*.jar | wc -l) jars in $((SECONDS - started)) s"
}

write_config() {
  mkdir -p "$DATA"
  cat >"$CONFIG" <<EOF
# Generated by scripts/kafka/broker.sh on each start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$DATA/kraft-logs
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
min.insync.replicas=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
EOF
  cat >"$LOG4J" <<'EOF'
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.org.apache.kafka.raft=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.state.change.logger=WARN
EOF
  write_tools_log4j
}

write_tools_log4j() {
  mkdir -p "$CACHE"
  # For the command-line tools (TopicCommand, console producer/consumer): warnings only, on stderr.
  cat >"$CACHE/tools-log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

format_storage() {
  if [ ! -s "$CLUSTER_ID_FILE" ]; then
    java -cp "$(classpath)" -Dlog4j.configuration="file:$LOG4J" kafka.tools.StorageTool random-uuid \
      2>>"$LOG_FILE" | tail -n 1 >"$CLUSTER_ID_FILE.tmp"
    [ -s "$CLUSTER_ID_FILE.tmp" ] || die "could not generate a cluster id (see $LOG_FILE)"
    mv "$CLUSTER_ID_FILE.tmp" "$CLUSTER_ID_FILE"
  fi
  # Format only a fresh (empty) log dir; an existing store is reused across restarts.
  if [ -d "$DATA/kraft-logs" ] && [ -n "$(ls -A "$DATA/kraft-logs" 2>/dev/null)" ]; then
    return 0
  fi
  say "formatting a new KRaft store (cluster id $(cat "$CLUSTER_ID_FILE"))"
  java -cp "$(classpath)" -Dlog4j.configuration="file:$LOG4J" kafka.tools.StorageTool format \
    -t "$(cat "$CLUSTER_ID_FILE")" -c "$CONFIG" >>"$LOG_FILE" 2>&1 \
    || { tail -n 20 "$LOG_FILE" >&2; die "storage format failed"; }
}

# --- commands ----------------------------------------------------------------------------------
cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid, port $(cat "$PORT_FILE" 2>/dev/null || echo '?'))"
    return 0
  fi
  command -v java >/dev/null || die "java not found (Java 17 is needed)"
  if port_open "$PORT"; then die "port $PORT on $HOST is already in use by another process"; fi
  if port_open "$CONTROLLER_PORT"; then die "controller port $CONTROLLER_PORT on $HOST is already in use"; fi
  mkdir -p "$CACHE"
  local started=$SECONDS
  fetch_deps
  write_config
  : >"$LOG_FILE"
  format_storage
  # shellcheck disable=SC2086 # HEAP_OPTS is a list of JVM flags
  nohup java $HEAP_OPTS -XX:+UseG1GC -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$LOG4J" -cp "$(classpath)" kafka.Kafka "$CONFIG" \
    >>"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"
  echo "$PORT" >"$PORT_FILE"
  mkdir -p "$REGISTRY"
  echo "$STATE" >"$REGISTRY/$PORT"
  # Ready = the port accepts connections AND the server logged that start-up finished
  # (the listener socket is bound a moment before the broker serves requests).
  local deadline=$((SECONDS + START_TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      tail -n 30 "$LOG_FILE" >&2
      die "broker exited during start-up (log: $LOG_FILE)"
    fi
    if port_open "$PORT" && grep -q "Kafka Server started" "$LOG_FILE"; then
      say "running on $HOST:$PORT (pid $pid, ready in $((SECONDS - started)) s, log $LOG_FILE)"
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -n 30 "$LOG_FILE" >&2
      kill "$pid" 2>/dev/null || true
      rm -f "$PID_FILE"
      die "broker not ready after ${START_TIMEOUT} s; stopped it (log: $LOG_FILE)"
    fi
    sleep 0.5
  done
}

cmd_stop() {
  if [ -n "$ALL" ]; then
    local port state
    while read -r port state; do
      STATE="$state" PID_FILE="$state/broker.pid" CONFIG="$state/server.properties" stop_broker
    done < <(registered_brokers)
    return 0
  fi
  stop_broker || mention_others stop
}

# Stops the broker of $STATE; returns 1 when it is not running.
stop_broker() {
  local pid
  if ! pid="$(running_pid)"; then
    say "not running${STATE_GIVEN:+ (state dir $STATE)}"
    return 1
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "pid $pid still alive after ${STOP_TIMEOUT} s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
  rm -f "$PID_FILE"
  local entry
  for entry in "$REGISTRY"/*; do
    [ -f "$entry" ] && [ "$(cat "$entry")" = "$STATE" ] && rm -f "$entry"
  done
  say "stopped (pid $pid, state dir $STATE)"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    local port
    port="$(cat "$PORT_FILE" 2>/dev/null || echo '?')"
    if port_open "$port"; then
      say "running on $HOST:$port (pid $pid)"
    else
      say "starting or unhealthy: pid $pid alive but $HOST:$port not accepting connections"
    fi
    return 0
  fi
  say "not running"
  mention_others check
  return 3
}

# Proves the running broker works with its own Java tools: create a fresh topic, list it,
# produce two keyed records (acks=all, idempotent producer), read them back through a consumer
# group, compare, delete the topic.
cmd_smoke() {
  local pid port
  pid="$(running_pid)" || die "not running (start it first)"
  port="$(cat "$PORT_FILE")"
  write_tools_log4j
  local bs="$HOST:$port" t0=$SECONDS topic
  topic="smoke-$(date +%s)-$$"
  local tool=(java -Dlog4j.configuration="file:$CACHE/tools-log4j.properties" -cp "$(classpath)")
  "${tool[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bs" \
    --create --topic "$topic" --partitions 1 --replication-factor 1 >/dev/null
  "${tool[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bs" --list | grep -qx "$topic" \
    || die "smoke: topic $topic not listed"
  printf 'k1:one\nk2:two\n' \
    | "${tool[@]}" kafka.tools.ConsoleProducer --bootstrap-server "$bs" --topic "$topic" \
        --property parse.key=true --property key.separator=: \
        --producer-property acks=all --producer-property enable.idempotence=true
  local got
  got="$("${tool[@]}" org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$bs" \
    --topic "$topic" --from-beginning --group "$topic" --max-messages 2 --timeout-ms 20000 \
    --property print.key=true --property key.separator=: 2>/dev/null || true)"
  "${tool[@]}" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bs" --delete --topic "$topic" >/dev/null
  [ "$got" = "$(printf 'k1:one\nk2:two')" ] || die "smoke: consumed records differ from produced ones: '$got'"
  say "smoke ok: topic created and listed, 2 keyed records produced (acks=all, idempotent) and consumed back, topic deleted ($((SECONDS - t0)) s)"
}

case "$CMD" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  smoke) cmd_smoke ;;
  *) usage ;;
esac
