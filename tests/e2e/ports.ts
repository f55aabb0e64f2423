/** Where the e2e run serves the mock provider APIs (the app itself is on 4174). */
export const mockPort = 4319;
export const mockUrl = `http://127.0.0.1:${mockPort}`;
