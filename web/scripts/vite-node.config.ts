// vite-node's own config, empty: the check scripts need none of the app's
// plugins (vite.config.ts would start React Router's).
export default {};
