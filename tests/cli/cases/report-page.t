# report writes one self-contained HTML page: Chart.js and the data inside, nothing loaded from elsewhere
cmd: evtool report @DATA@/threads-n1.eventlog -o run.html && ls -A && head -c 15 run.html && echo && grep -c 'Chart.js v3' run.html && grep -c '<script type="application/json" id="report-data">{"schema_version":1,' run.html && ! grep -q -E '<script[^>]* src=|<link|https?://[^"]*\.(js|css)' run.html && echo "nothing loaded from elsewhere"
exit: 0
--- stdout
run.html
<!DOCTYPE html>
1
1
nothing loaded from elsewhere
--- stderr
