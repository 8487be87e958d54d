import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-IB4TAQPK.js";import"./chunk-K3D5RFA3.js";import"./chunk-A2BOLD3A.js";import"./chunk-WIWBI6IT.js";import"./chunk-SYX3CK3U.js";import"./chunk-2JOT5Q2Y.js";import"./chunk-T7CKW7ZJ.js";import"./chunk-Z3ZRBVGN.js";import"./chunk-4PYPBIHA.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
