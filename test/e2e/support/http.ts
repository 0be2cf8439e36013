/**
 * Moved to test/support/http.ts (the integration matrices use it too). This path stays only for
 * what still imports it here: test/e2e/support/offline.ts and bench/. Import `#test/support/http`.
 */
export * from '#test/support/http';
