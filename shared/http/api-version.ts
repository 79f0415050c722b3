/** The API's version: the stage of the deployed API and the path prefix of the local one. */
export const API_VERSION = 'v1';
