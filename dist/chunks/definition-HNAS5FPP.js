import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-DKMK3JEE.js";import"./chunk-OULGIBU3.js";import"./chunk-TEZJXDLW.js";import"./chunk-ZDMAPSFW.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-HB57LLBB.js";import"./chunk-XBPPTJU7.js";export{a as action};
