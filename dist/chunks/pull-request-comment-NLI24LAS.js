import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-3X5YILUW.js";import"./chunk-L2TPZUPR.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as CommentRequestError,h as commentFailureText,b as commentMarker,c as commentText,e as githubClient,d as pullRequestOf,g as sender,f as writePullRequestComment};
