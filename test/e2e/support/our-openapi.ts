/**
 * Moved to test/support/our-openapi.ts (the integration matrices use it too). This path stays only
 * for test/e2e/support/offline.ts, which still imports it here. Import `#test/support/our-openapi`.
 */
export * from '#test/support/our-openapi';
