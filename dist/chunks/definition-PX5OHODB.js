import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-2P56HHCV.js";import"./chunk-K3D5RFA3.js";import"./chunk-GEQM6JY5.js";import"./chunk-F2ZH26W7.js";import"./chunk-NOCXPP6Y.js";import"./chunk-TEZJXDLW.js";import"./chunk-ZDMAPSFW.js";import"./chunk-YE3PJPS7.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-HB57LLBB.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
