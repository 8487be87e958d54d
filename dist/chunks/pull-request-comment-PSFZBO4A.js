import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-OHB7DYTA.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as CommentRequestError,h as commentFailureText,b as commentMarker,c as commentText,e as githubClient,d as pullRequestOf,g as sender,f as writePullRequestComment};
