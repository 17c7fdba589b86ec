/*
 * evtool's HTTP server decisions (cmd/http_request.c): --listen values,
 * the Host check of a loopback server and of one on another address, the Accept negotiation between
 * Prometheus' text format and OpenMetrics, and exact paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <netinet/in.h>

#include "http_request.h"

static void test_listen(void **state)
{
	http_listen l;
	const char *why = NULL;

	(void)state;
	assert_int_equal(http_listen_parse(HTTP_DEFAULT_LISTEN, &l, &why), 0);
	assert_int_equal(l.port, 9464);
	assert_true(l.loopback);
	assert_int_equal(l.addr.ss_family, AF_INET);
	assert_int_equal(http_listen_parse("9000", &l, &why), 0);
	assert_true(l.loopback && l.port == 9000);
	assert_int_equal(http_listen_parse("localhost:0", &l, &why), 0);
	assert_true(l.loopback && l.port == 0);
	assert_int_equal(http_listen_parse("[::1]:9464", &l, &why), 0);
	assert_true(l.loopback && l.addr.ss_family == AF_INET6);
	assert_false(l.wildcard);
	assert_int_equal(http_listen_parse("0.0.0.0:9464", &l, &why), 0);
	assert_true(!l.loopback && l.wildcard);
	assert_int_equal(http_listen_parse("[::]:1", &l, &why), 0);
	assert_true(!l.loopback && l.wildcard);
	assert_int_equal(http_listen_parse("192.168.1.5:80", &l, &why), 0);
	assert_true(!l.loopback && !l.wildcard);
	assert_int_equal(http_listen_parse("127.0.0.1:65536", &l, &why), -1);
	assert_string_equal(why, "the port must be a number from 0 to 65535");
	assert_int_equal(http_listen_parse("127.0.0.1:", &l, &why), -1);
	assert_int_equal(http_listen_parse("example.com:80", &l, &why), -1);
	assert_string_equal(why, "the address must be an IPv4 address, "
				 "[IPv6] or localhost");
	assert_int_equal(http_listen_parse("::1:80", &l, &why), -1);
	assert_int_equal(http_listen_parse("[]:80", &l, &why), -1);
}

static void test_host(void **state)
{
	http_listen lo;
	const char *why;

	(void)state;
	assert_int_equal(http_listen_parse("127.0.0.1:9464", &lo, &why), 0);
	assert_true(http_host_allowed(NULL, &lo));
	assert_true(http_host_allowed("localhost", &lo));
	assert_true(http_host_allowed("LOCALHOST:9464", &lo));
	assert_true(http_host_allowed("127.0.0.1:9464", &lo));
	assert_true(http_host_allowed("127.3.2.1", &lo));
	assert_true(http_host_allowed("[::1]:9464", &lo));
	assert_false(http_host_allowed("evil.example.com", &lo));
	assert_false(http_host_allowed("localhost.evil.example.com", &lo));
	assert_false(http_host_allowed("127.0.0.1.nip.io", &lo));
	assert_false(http_host_allowed("localhost:x", &lo));
	assert_false(http_host_allowed("10.0.0.1:9464", &lo));
	assert_false(http_host_allowed("", &lo));
}

/* A server on another address answers to that address only, as an IP
 * literal with or without its port: no name, so no DNS rebinding. */
static void test_host_address(void **state)
{
	http_listen v4, v6;
	const char *why;

	(void)state;
	assert_int_equal(http_listen_parse("192.168.1.5:8080", &v4, &why), 0);
	assert_int_equal(http_listen_parse("[2001:db8::7]:8080", &v6, &why), 0);
	assert_true(http_host_allowed(NULL, &v4));
	assert_true(http_host_allowed("192.168.1.5", &v4));
	assert_true(http_host_allowed("192.168.1.5:8080", &v4));
	assert_false(http_host_allowed("192.168.1.5:8081", &v4));
	assert_false(http_host_allowed("192.168.1.5:", &v4));
	assert_false(http_host_allowed("192.168.1.6:8080", &v4));
	assert_false(http_host_allowed("evil.example.com", &v4));
	assert_false(http_host_allowed("evil.example.com:8080", &v4));
	assert_false(http_host_allowed("192.168.1.5.nip.io:8080", &v4));
	assert_false(http_host_allowed("localhost:8080", &v4));
	assert_false(http_host_allowed("127.0.0.1:8080", &v4));
	assert_false(http_host_allowed("[::ffff:192.168.1.5]:8080", &v4));
	assert_false(http_host_allowed("", &v4));
	assert_true(http_host_allowed("[2001:db8::7]", &v6));
	assert_true(http_host_allowed("[2001:DB8:0::7]:8080", &v6));
	assert_false(http_host_allowed("[2001:db8::7]:80", &v6));
	assert_false(http_host_allowed("[2001:db8::8]:8080", &v6));
	assert_false(http_host_allowed("2001:db8::7", &v6));
	assert_false(http_host_allowed("192.168.1.5:8080", &v6));
	assert_false(http_host_allowed("evil.example.com:8080", &v6));
}

/* A server on every interface (0.0.0.0, ::) cannot be named by one
 * address: it answers to any IP literal, or localhost, with its port. */
static void test_host_wildcard(void **state)
{
	http_listen any, any6;
	const char *why;

	(void)state;
	assert_int_equal(http_listen_parse("0.0.0.0:9464", &any, &why), 0);
	assert_int_equal(http_listen_parse("[::]:9464", &any6, &why), 0);
	assert_true(http_host_allowed("10.0.0.1:9464", &any));
	assert_true(http_host_allowed("0.0.0.0:9464", &any));
	assert_true(http_host_allowed("localhost:9464", &any));
	assert_true(http_host_allowed("[fe80::1]", &any6));
	assert_true(http_host_allowed("192.168.1.5:9464", &any6));
	assert_false(http_host_allowed("10.0.0.1:9465", &any));
	assert_false(http_host_allowed("evil.example.com", &any));
	assert_false(http_host_allowed("evil.example.com:9464", &any6));
	assert_false(http_host_allowed("10.0.0.1.nip.io:9464", &any));
	assert_false(http_host_allowed("", &any));
}

static void test_accept(void **state)
{
	(void)state;
	/* What Prometheus 2.42 sends. */
	assert_true(http_prefers_openmetrics(
		"application/openmetrics-text;version=1.0.0,application/"
		"openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
		"q=0.5,*/*;q=0.1"));
	assert_false(http_prefers_openmetrics(NULL));
	assert_false(http_prefers_openmetrics("*/*"));
	assert_false(http_prefers_openmetrics("text/plain"));
	assert_false(http_prefers_openmetrics("text/plain, application/"
					      "openmetrics-text"));
	assert_true(http_prefers_openmetrics("application/openmetrics-text"));
	assert_true(http_prefers_openmetrics("text/*;q=0.2, application/*"));
	assert_false(http_prefers_openmetrics("application/openmetrics-text;"
					      "q=0.3, text/plain;q=0.4"));
	assert_false(http_prefers_openmetrics("application/openmetrics-text;"
					      "q=0"));
	/* A malformed q drops its element. */
	assert_false(http_prefers_openmetrics("application/openmetrics-text;"
					      "q=2"));
	assert_true(http_prefers_openmetrics(" application/openmetrics-text ;"
					     " q=0.9 , text/plain;q=0.125"));
}

static void test_routes(void **state)
{
	static const char *const paths[] = { "/metrics", "/" };

	(void)state;
	assert_int_equal(http_route_find("/metrics", paths, 2), 0);
	assert_int_equal(http_route_find("/", paths, 2), 1);
	assert_int_equal(http_route_find("/metrics/", paths, 2), -1);
	assert_int_equal(http_route_find("/Metrics", paths, 2), -1);
	assert_int_equal(http_route_find("/x/../metrics", paths, 2), -1);
	assert_int_equal(http_route_find(NULL, paths, 2), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_host_address),
		cmocka_unit_test(test_host_wildcard),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_routes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
