import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-NIXGSSYF.js";import"./chunk-SYKTMU6E.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as CommentRequestError,b as MAX_COMMENT_LENGTH,h as commentFailureText,c as commentMarker,d as commentText,e as pullRequestOf,g as sender,f as writePullRequestComment};
