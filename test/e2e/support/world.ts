/**
 * Moved to test/support/world.ts (the integration matrices use it too). This path stays only for
 * bench/, which still imports it here. Import `#test/support/world`.
 */
export * from '#test/support/world';
