import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-I25D5GNF.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as CommentRequestError,g as commentFailureText,b as commentMarker,c as commentText,d as pullRequestOf,f as sender,e as writePullRequestComment};
