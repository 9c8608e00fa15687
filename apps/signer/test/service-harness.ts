// The real web server, started the way apps/web's own tests start it. @qc/web exports no
// testing entry point yet, so its harness is reached by path; the imports it makes resolve
// from apps/web, where they are declared.
export { startTestServer, call, TEST_PEPPER, type TestServer } from "../../web/test/harness";
