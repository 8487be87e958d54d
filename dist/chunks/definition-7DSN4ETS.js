import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-E54IYWI3.js";import"./chunk-4KIULR54.js";import"./chunk-OBIZ4D5A.js";import"./chunk-N2A5VPPJ.js";import"./chunk-RABETSIS.js";import"./chunk-QDZKKLTL.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
